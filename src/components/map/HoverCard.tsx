// What a pointer resting on an entity shows (the "visible on hover"): its name, whether it
// is connected (`active`) and its latest values, fetched on demand (the map holds no details).
import { useOne } from '@refinedev/core';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Popup } from 'react-map-gl/maplibre';
import { pickLocalized } from '../../shared/i18n/pickLocalized.ts';
import type { EntityDetailJson } from '../../schemas/entityJson.ts';

export interface Hovered { id: number; longitude: number; latitude: number }

export function HoverCard({ hovered }: { hovered: Hovered }) {
  const { t, i18n } = useTranslation();
  const { query } = useOne<EntityDetailJson>({ resource: 'entities', id: hovered.id, errorNotification: false, queryOptions: { staleTime: 5_000 } });
  const entity = query.data?.data;
  if (!entity) return null;
  const active = entity.attributes.active;
  const values = Object.entries(entity.telemetry).slice(0, 6);
  return (
    <Popup longitude={hovered.longitude} latitude={hovered.latitude} closeButton={false} closeOnClick={false} offset={12} maxWidth="260px">
      <div data-testid="hover-card">
        <Typography.Text strong>{pickLocalized(entity.name, i18n.language)}</Typography.Text>
        {typeof active === 'boolean' && <div>{active ? t('map.active') : t('map.inactive')}</div>}
        {values.map(([key, { value }]) => <div key={key}>{key}: {typeof value === 'object' ? JSON.stringify(value) : String(value)}</div>)}
      </div>
    </Popup>
  );
}
