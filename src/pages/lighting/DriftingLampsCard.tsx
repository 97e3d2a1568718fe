// The lamps out of step, longest first: each named (selecting it on the map), with the level it
// should have, the level it reports and since when. Shown on the dashboard rather than beside the
// profiles: whoever watches the lamps — an operator without the studio too — sees a lamp that does
// not follow and opens it in one step, on the map where it stands and with its commands.
import { Alert, Button, Card, Empty, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { pickLocalized } from '../../shared/i18n/pickLocalized.ts';
import type { DriftingLamps } from './useDriftingLamps.ts';

export function DriftingLampsCard({ drifting, onSelect }: { drifting: DriftingLamps; onSelect(id: number): void }) {
  const { t, i18n } = useTranslation();
  const percent = (level: number | null) => (level === null ? t('lighting.lamp.notReported') : t('lighting.lamp.percent', { level: Math.round(level) }));
  let body;
  if (drifting.loading) body = <Spin size="small" />;
  else if (drifting.error) body = <Alert type="error" showIcon message={t('lighting.drifting.loadFailed')} description={drifting.error.message} />;
  else if (!drifting.lamps?.length) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('lighting.drifting.none')} />;
  else {
    body = (
      <ul className="drifting-lamps" data-testid="drifting-lamps">
        {drifting.lamps.map((lamp) => {
          const name = pickLocalized(lamp.name, i18n.language) || `#${lamp.entity_id}`;
          return (
            <li key={lamp.entity_id} data-testid="drifting-lamp">
              <Button type="link" size="small" className="drifting-lamp-name" onClick={() => onSelect(Number(lamp.entity_id))}>{name}</Button>
              <Typography.Text type="secondary" className="drifting-lamp-levels">
                {t('lighting.drifting.columns.desired')} {percent(lamp.level)} · {t('lighting.drifting.columns.reported')} {percent(lamp.reported_level)}
                {' · '}{t('lighting.drifting.columns.since')} <time dateTime={lamp.since}>{new Date(lamp.since).toLocaleString(i18n.language)}</time>
              </Typography.Text>
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <Card size="small" title={t('lighting.drifting.title')}>
      <Typography.Paragraph type="secondary">{t('lighting.drifting.hint')}</Typography.Paragraph>
      {body}
    </Card>
  );
}
