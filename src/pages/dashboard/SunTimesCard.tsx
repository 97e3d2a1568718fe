// Sunrise and sunset at the map's centre, with the year's range (SPEC §4).
import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { sunTimes } from './sunTimes.ts';

export function SunTimesCard({ latitude, longitude }: { latitude: number; longitude: number }) {
  const { t, i18n } = useTranslation();
  const times = sunTimes(latitude, longitude);
  const time = (value: Date | null) => (value ? value.toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit' }) : '—');
  return (
    <Descriptions size="small" column={1} title={t('dashboard.sun.title')} data-testid="sun-times">
      <Descriptions.Item label={t('dashboard.sun.sunrise')}>{time(times.sunrise)} ({time(times.earliestSunrise)} – {time(times.latestSunrise)})</Descriptions.Item>
      <Descriptions.Item label={t('dashboard.sun.sunset')}>{time(times.sunset)} ({time(times.earliestSunset)} – {time(times.latestSunset)})</Descriptions.Item>
    </Descriptions>
  );
}
