// The three studio pages (SPEC §2): which entity types each edits, which of the entity model's
// fields its form shows (the fields themselves come from src/schemas/entity.ts), and the shapes
// its entities may take on the map.
import type { EntityType } from '../../components/layout/shellData.ts';
import type { DrawShape } from '../../components/map/geometryShapes.ts';

export type StudioKind = 'regions' | 'zones' | 'devices';

export interface StudioKindSpec {
  titleKey: string;
  /** The entity model's fields in the form. */
  fields: string[];
  shapes: DrawShape[];
  /** Saving needs a geometry (SPEC §5: a zone needs its polygon). */
  geometryRequired?: string;
  types(entityTypes: readonly EntityType[]): EntityType[];
}

const systemName = (type: EntityType) => type.attributes?.system_name;

export const STUDIO_KINDS: Record<StudioKind, StudioKindSpec> = {
  regions: {
    titleKey: 'routes.regions',
    fields: ['name', 'level'],
    shapes: ['point'],
    types: (types) => types.filter((type) => systemName(type) === 'region'),
  },
  zones: {
    titleKey: 'routes.zones',
    fields: ['name', 'parent_id', 'level'],
    shapes: ['polygon'],
    geometryRequired: 'studio.zoneMissingCoordinates',
    types: (types) => types.filter((type) => systemName(type) === 'zone'),
  },
  devices: {
    titleKey: 'routes.devices',
    fields: ['name', 'entity_type_id', 'parent_id', 'level', 'group_ids', 'interface'],
    shapes: ['point', 'polygon', 'circle'],
    types: (types) => types.filter((type) => systemName(type) !== 'region' && systemName(type) !== 'zone'),
  },
};
