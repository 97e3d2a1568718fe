// The GPS position of a point or a circle's centre, typed in (SPEC §2: GPS, a region's centre):
// the keyboard's way to place what is otherwise clicked on the map.
import { InputNumber, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { MAX_LATITUDE, type Geometry } from '../../schemas/geometry.ts';

interface GpsFieldProps {
  geometry: Geometry | null;
  onChange(geometry: Geometry): void;
}

export function GpsField({ geometry, onChange }: GpsFieldProps) {
  const { t } = useTranslation();
  const point = geometry?.type === 'Point' ? geometry : undefined;
  const [longitude, latitude] = point?.coordinates ?? [undefined, undefined];
  const set = (axis: 0 | 1, value: number | null) => {
    if (typeof value !== 'number') return;
    const coordinates: [number, number] = [longitude ?? 0, latitude ?? 0];
    coordinates[axis] = value;
    onChange(point ? { ...point, coordinates } : { type: 'Point', coordinates });
  };
  return (
    <Space wrap data-testid="gps-field">
      <InputNumber addonBefore={t('studio.latitude')} aria-label={t('studio.latitude')} value={latitude} min={-MAX_LATITUDE} max={MAX_LATITUDE}
        step={0.0001} precision={6} onChange={(value) => set(1, value)} style={{ width: 200 }} />
      <InputNumber addonBefore={t('studio.longitude')} aria-label={t('studio.longitude')} value={longitude} min={-180} max={180}
        step={0.0001} precision={6} onChange={(value) => set(0, value)} style={{ width: 200 }} />
    </Space>
  );
}
