// A lamp's lighting in the entity view (docs/lighting.md): the level it should have against the
// level it reports, marked "out of step" when they differ; why it has that level; the profile it
// follows and through what; an override that is on, with its end; the override control for those
// holding dashboard.entity.manually_editable; its recent commands. Read again whenever the lamp
// changes live (`revision`) and after an override.
import { useCustom } from '@refinedev/core';
import { Alert, Descriptions, Spin, Tag, Typography } from 'antd';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlMeta } from '../../providers/dataProvider.ts';
import { MANUAL_EDIT_PERMISSION } from '../../schemas/entityAttributeUpdate.ts';
import { hasPermission, useTokenClaims } from '../../session/access.ts';
import { LampAssignment } from './LampAssignment.tsx';
import { LampCommands } from './LampCommands.tsx';
import { OverrideControl } from './OverrideControl.tsx';
import { LAMP_LIGHTING, type LampLighting } from './queries.ts';
import './lighting.css';

interface LampLightingSectionProps {
  id: number;
  /** Changes whenever the lamp changed live: the section reads it again. */
  revision: number;
}

export function LampLightingSection({ id, revision }: LampLightingSectionProps) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const mayOverride = hasPermission(useTokenClaims().module_permissions, MANUAL_EDIT_PERMISSION);
  const { query } = useCustom<{ lamp_lighting: LampLighting }>({
    url: '', method: 'post', meta: graphqlMeta(LAMP_LIGHTING, { id }), errorNotification: false,
  });
  const { refetch } = query;
  useEffect(() => {
    if (revision > 0) void refetch();
  }, [revision, refetch]);

  const lamp = query.data?.data.lamp_lighting;
  const time = (at: string) => new Date(at).toLocaleString(i18n.language);
  const percent = (level: number) => t('lighting.lamp.percent', { level: Math.round(level) });
  const overrideOn = !!lamp?.override_until && Date.parse(lamp.override_until) > Date.now();

  let body;
  if (query.isLoading) body = <Spin size="small" />;
  else if (query.isError || !lamp) body = <Alert type="error" showIcon message={t('lighting.lamp.loadFailed')} description={query.error?.message} />;
  else {
    body = (
      <>
        <Descriptions size="small" column={1} data-testid="lamp-levels">
          <Descriptions.Item label={t('lighting.lamp.desired')}>
            <span>
              <span className="lamp-level" data-testid="lamp-desired">{lamp.level === null ? t('lighting.lamp.notDecided') : percent(lamp.level)}</span>
              {lamp.since && <Typography.Text type="secondary" className="lamp-when">{t('lighting.lamp.since', { time: time(lamp.since) })}</Typography.Text>}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('lighting.lamp.reported')}>
            <span>
              {lamp.drifting && (
                <Tag className="lighting-tag lamp-out-of-step" color="error" title={t('lighting.lamp.outOfStepHint')} data-testid="lamp-out-of-step">
                  {t('lighting.lamp.outOfStep')}
                </Tag>
              )}
              <span className="lamp-level" data-testid="lamp-reported">{lamp.reported_level === null ? t('lighting.lamp.notReported') : percent(lamp.reported_level)}</span>
              {lamp.reported_at && <Typography.Text type="secondary" className="lamp-when">{t('lighting.lamp.at', { time: time(lamp.reported_at) })}</Typography.Text>}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('lighting.lamp.reason')}>
            <span data-testid="lamp-reason">{lamp.reason ? t(`lighting.reasons.${lamp.reason}`, { defaultValue: lamp.reason }) : '—'}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('lighting.lamp.profile')}>
            <LampAssignment lampId={id} profile={lamp.profile} through={lamp.through} />
          </Descriptions.Item>
          {overrideOn && (
            <Descriptions.Item label={t('lighting.lamp.override')}>
              <span data-testid="lamp-override-until">{t('lighting.lamp.overrideUntil', { level: lamp.override_level, time: time(lamp.override_until!) })}</span>
            </Descriptions.Item>
          )}
        </Descriptions>
        {mayOverride && (
          <OverrideControl lampId={id} level={lamp.override_level ?? lamp.level} active={overrideOn} onChanged={() => void refetch()} />
        )}
        <Typography.Title level={5} className="lamp-commands-title">{t('lighting.lamp.commands')}</Typography.Title>
        <LampCommands commands={lamp.commands} />
      </>
    );
  }

  return (
    <section aria-labelledby={headingId} data-testid="lamp-lighting">
      <Typography.Title level={5} id={headingId}>{t('lighting.lamp.title')}</Typography.Title>
      {body}
    </section>
  );
}
