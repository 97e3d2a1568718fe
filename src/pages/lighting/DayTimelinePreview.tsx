// The profile editor's day preview (docs/lighting.md "The day timeline"): the level the profile in
// the form gives through the 24 hours of a chosen date at a chosen place, drawn by KpiChart as a
// step line on a 0–100 % axis, with the day's sunrise and sunset marked and named (or the polar
// state said), in the tenant's time zone. It follows the form a short pause after each change;
// half-filled values give a hint, never an error. The levels are also listed as text.
import { Alert, Card, Empty, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { KpiChart } from '../../components/charts/KpiChart.tsx';
import { useTenantTimeZone } from '../../components/layout/tenantTimeZone.ts';
import { DEFAULT_CENTER } from '../../schemas/mapConfig.ts';
import { cleanValues } from '../../components/schema/formValues.ts';
import { usePaused } from '../../components/usePaused.ts';
import { localDateOf, type LightingProfile } from '../../shared/lighting/index.ts';
import type { FieldSchema } from '../../schemas/model.ts';
import { profileSchema } from '../../schemas/profile.ts';
import type { FormAsideProps } from '../resources/ResourceFormPage.tsx';
import { draftTimeline } from './draftTimeline.ts';
import { PreviewPlaceFields, type PlaceValues } from './PreviewPlaceFields.tsx';
import { SunLine } from './SunLine.tsx';
import { sunMarkers, timelineAnswer, timelineKpi, LEVEL_DOMAIN, timeOfDayFormatter } from './timelineChart.ts';
import { TimelineText } from './TimelineText.tsx';
import './lighting.css';

/** What of the form the timeline reads: the profile's type and definition, as they would be saved. */
const profileOf = (values: Record<string, unknown>) => {
  const { type, definition } = cleanValues(profileSchema as unknown as FieldSchema, values);
  return JSON.stringify({ type, definition });
};

export function DayTimelinePreview({ values }: FormAsideProps) {
  const { t, i18n } = useTranslation();
  const timeZone = useTenantTimeZone();
  const [place, setPlace] = useState<PlaceValues>(() => ({ date: localDateOf(new Date(), timeZone), ...DEFAULT_CENTER }));
  const draft = usePaused(profileOf(values));
  const profile = useMemo(() => JSON.parse(draft) as LightingProfile, [draft]);
  const result = useMemo(() => draftTimeline(profile, { ...place, timeZone }), [profile, place, timeZone]);
  const formatTime = useMemo(() => timeOfDayFormatter(i18n.language, timeZone), [i18n.language, timeZone]);

  const label = t('lighting.preview.level');
  const chart = useMemo(() => {
    if (!('timeline' in result)) return undefined;
    const { timeline } = result;
    return {
      kpi: timelineKpi(t('lighting.preview.chartName', { date: timeline.date }), label),
      data: timelineAnswer(timeline, label, timeZone),
      markers: sunMarkers(timeline.sun, (event, at) => t(`lighting.preview.${event}`, { time: formatTime(at) })),
    };
  }, [result, label, timeZone, formatTime, t]);

  return (
    <Card title={t('lighting.preview.title')} data-testid="timeline-preview">
      <PreviewPlaceFields value={place} onChange={setPlace} />
      <Typography.Paragraph type="secondary">{t('lighting.preview.timeZone', { zone: timeZone })}</Typography.Paragraph>
      {'timeline' in result && chart ? (
        <>
          <KpiChart kpi={chart.kpi} data={chart.data} timeZone={timeZone} valueDomain={LEVEL_DOMAIN} markers={chart.markers} />
          <SunLine sun={result.timeline.sun} formatTime={formatTime} />
          <TimelineText timeline={result.timeline} formatTime={formatTime} />
          {result.incomplete > 0 && <Alert type="info" showIcon message={t('lighting.preview.incomplete', { count: result.incomplete })} data-testid="timeline-incomplete" />}
          {profile.definition?.light_sensor?.enabled && <Alert type="info" showIcon message={t('lighting.preview.sensorLeftOut')} />}
        </>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(`lighting.preview.problem.${'problem' in result ? result.problem : 'values'}`)} data-testid="timeline-hint" />
      )}
    </Card>
  );
}
