// A lamp's recent commands, newest first: when, what, at which level, and how far each got
// (queued → sent → delivered → done, or failed, or expired), in the reader's language.
import { Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LampCommand } from './queries.ts';

const STATUS_COLOURS: Record<string, string> = {
  queued: 'default', sent: 'processing', delivered: 'cyan', ok: 'success', failed: 'error', expired: 'warning',
};

export function LampCommands({ commands }: { commands: readonly LampCommand[] }) {
  const { t, i18n } = useTranslation();
  if (!commands.length) return <Typography.Text type="secondary">{t('lighting.lamp.noCommands')}</Typography.Text>;
  return (
    <Table<LampCommand>
      data-testid="lamp-commands"
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={[...commands]}
      columns={[
        { key: 'time', title: t('lighting.lamp.columns.time'), render: (_, command) => <time dateTime={command.created_at}>{new Date(command.created_at).toLocaleString(i18n.language)}</time> },
        { key: 'method', title: t('lighting.lamp.columns.method'), render: (_, command) => t(`lighting.commandMethods.${command.method}`, { defaultValue: command.method }) },
        {
          key: 'level', title: t('lighting.lamp.columns.level'), align: 'right',
          render: (_, command) => (typeof command.params?.level === 'number' ? t('lighting.lamp.percent', { level: command.params.level }) : '—'),
        },
        {
          key: 'status', title: t('lighting.lamp.columns.status'),
          render: (_, command) => (
            <Tag className="lighting-tag" color={STATUS_COLOURS[command.status] ?? 'default'} data-testid="command-status">
              {t(`lighting.commandStatus.${command.status}`, { defaultValue: command.status })}
            </Tag>
          ),
        },
      ]}
    />
  );
}
