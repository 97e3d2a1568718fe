// The preview's sunrise and sunset in words, or that the sun does not set (a polar day) or rise
// (a polar night) on the date.
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SunDay } from '../../shared/lighting/index.ts';

export function SunLine({ sun, formatTime }: { sun: SunDay; formatTime(at: Date): string }) {
  const { t } = useTranslation();
  const text = sun.kind === 'normal'
    ? `${t('lighting.preview.sunrise', { time: formatTime(sun.sunrise) })} · ${t('lighting.preview.sunset', { time: formatTime(sun.sunset) })}`
    : t(sun.kind === 'polar-day' ? 'lighting.preview.polarDay' : 'lighting.preview.polarNight');
  return <Typography.Paragraph className="timeline-sun" data-testid="timeline-sun">{text}</Typography.Paragraph>;
}
