// An operator's override of one lamp (permission dashboard.entity.manually_editable): a level
// (slider or number) for a while (15 min to 24 h), and the end of an override that is on. The
// outcome is said beside the control: the server's error in the reader's language (FORBIDDEN,
// LAMPS_NOT_FOUND, …), or where the lamp stands now.
import { useCustomMutation, type HttpError } from '@refinedev/core';
import { Alert, Button, InputNumber, Select, Slider, Space } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlMeta } from '../../providers/dataProvider.ts';
import { DEFAULT_OVERRIDE_MINUTES, OVERRIDE_LEVEL, OVERRIDE_MINUTES } from './overrideDurations.ts';
import { END_LIGHTING_OVERRIDE, OVERRIDE_LIGHTING } from './queries.ts';

interface OverrideControlProps {
  lampId: number;
  /** The level to start from: the override's, else the lamp's own. */
  level: number | null;
  /** An override is on: it can be ended. */
  active: boolean;
  /** After an override was set or ended. */
  onChanged(): void;
}

type Outcome = { type: 'success' | 'error'; text: string } | null;
/** What override_lighting (until) or end_lighting_override answers. */
type OverrideAnswer = { override_lighting?: { until: string | null }; end_lighting_override?: { entity_ids: string[] } };

export function OverrideControl({ lampId, level: startLevel, active, onChanged }: OverrideControlProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [level, setLevel] = useState<number>(startLevel ?? OVERRIDE_LEVEL.max);
  const [minutes, setMinutes] = useState<number>(DEFAULT_OVERRIDE_MINUTES);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const { mutate, mutation } = useCustomMutation<OverrideAnswer>();
  const [doing, setDoing] = useState<'apply' | 'end'>();
  const busy = mutation.isPending;

  const send = (action: 'apply' | 'end', query: string, variables: Record<string, unknown>, success: (data: OverrideAnswer) => string) => {
    setOutcome(null);
    setDoing(action);
    mutate({ url: '', method: 'post', values: {}, meta: graphqlMeta(query, { ids: [String(lampId)], ...variables }), successNotification: false, errorNotification: false }, {
      onSuccess: ({ data }) => {
        setOutcome({ type: 'success', text: success(data) });
        onChanged();
      },
      onError: (error: HttpError) => setOutcome({ type: 'error', text: error.message || t('errors.generic') }),
    });
  };
  const apply = () => send('apply', OVERRIDE_LIGHTING, { level, minutes }, (data) => t('lighting.override.applied', {
    level, time: new Date(data.override_lighting?.until ?? Date.now() + minutes * 60_000).toLocaleString(i18n.language),
  }));
  const end = () => send('end', END_LIGHTING_OVERRIDE, {}, () => t('lighting.override.ended'));

  return (
    <div className="lamp-override" role="group" aria-label={t('lighting.override.title')} data-testid="lamp-override">
      <div className="lamp-override-level">
        <label htmlFor={`${id}-level`}>{t('lighting.override.level')}</label>
        <div className="lamp-override-row">
          <Slider className="lamp-override-slider" min={OVERRIDE_LEVEL.min} max={OVERRIDE_LEVEL.max} value={level} onChange={setLevel}
            ariaLabelForHandle={t('lighting.override.level')} disabled={busy} />
          <InputNumber id={`${id}-level`} data-testid="override-level" min={OVERRIDE_LEVEL.min} max={OVERRIDE_LEVEL.max} precision={0} value={level}
            onChange={(value) => typeof value === 'number' && setLevel(value)} disabled={busy} />
        </div>
      </div>
      <div className="lamp-override-duration">
        <label htmlFor={`${id}-minutes`}>{t('lighting.override.duration')}</label>
        <Select id={`${id}-minutes`} data-testid="override-minutes" value={minutes} onChange={setMinutes} disabled={busy}
          options={OVERRIDE_MINUTES.map((value) => ({ value, label: t(`lighting.override.durations.${value}`) }))} />
      </div>
      <Space wrap>
        <Button type="primary" onClick={apply} loading={busy && doing === 'apply'} disabled={busy} data-testid="override-apply">{t('lighting.override.apply')}</Button>
        {active && <Button onClick={end} loading={busy && doing === 'end'} disabled={busy} data-testid="override-end">{t('lighting.override.end')}</Button>}
      </Space>
      {outcome && (
        <Alert type={outcome.type} showIcon message={outcome.text} role={outcome.type === 'error' ? 'alert' : 'status'}
          data-testid={outcome.type === 'success' ? 'override-success' : 'override-error'} />
      )}
    </div>
  );
}
