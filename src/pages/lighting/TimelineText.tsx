// The preview's levels as a list for screen readers ("22:00–24:00: 40 % (Profile interval)"): the
// chart is a picture, this is its text.
import { useTranslation } from 'react-i18next';
import type { DayTimeline } from '../../shared/lighting/index.ts';
import { timelineLines } from './timelineChart.ts';

export function TimelineText({ timeline, formatTime }: { timeline: DayTimeline; formatTime(at: Date): string }) {
  const { t } = useTranslation();
  const lines = timelineLines(timeline, formatTime);
  return (
    <div className="visually-hidden" data-testid="timeline-levels">
      <h3>{t('lighting.preview.levels')}</h3>
      <ul>
        {lines.map((line) => (
          <li key={line.from}>{t('lighting.preview.line', { ...line, reason: t(`lighting.reasons.${line.reason}`) })}</li>
        ))}
      </ul>
    </div>
  );
}
