// The three studio pages (SPEC §2): which entity types each edits, which of the entity model's
// fields its form shows (the fields themselves come from src/schemas/entity.ts), and the shapes
// its entities may take on the map.
import type { EntityType } from '../../components/layout/shellData.ts';
import type { DrawShape } from '../../components/map/core/geometryShapes.ts';
import type { FieldSchema, ModelSchema } from '../../schemas/model.ts';

export type StudioKind = 'regions' | 'zones' | 'devices';


export interface StudioKindSpec {
  titleKey: string;
  /** The entity model's fields in the form; `attributes.color` names a declared attribute. */
  fields: string[];
  shapes: DrawShape[];
  /** Saving needs a geometry (SPEC §5: a zone needs its polygon). */
  geometryRequired?: string;
  /** The kind has a floor-plan image overlay (regions). */
  overlay?: boolean;
  types(entityTypes: readonly EntityType[]): EntityType[];
  /** The types a parent may have (a zone lies in a region; a device in a region or a zone). */
  parentTypes?(entityTypes: readonly EntityType[]): EntityType[];
}

const systemName = (type: EntityType) => type.attributes?.system_name;

export const STUDIO_KINDS: Record<StudioKind, StudioKindSpec> = {
  regions: {
    titleKey: 'routes.regions',
    fields: ['name', 'level', 'attributes.color', 'attributes.size'],
    shapes: ['point'],
    overlay: true,
    types: (types) => types.filter((type) => systemName(type) === 'region'),
  },
  zones: {
    titleKey: 'routes.zones',
    fields: ['name', 'parent_id', 'level', 'attributes.color'],
    shapes: ['polygon'],
    geometryRequired: 'studio.zoneMissingCoordinates',
    types: (types) => types.filter((type) => systemName(type) === 'zone'),
    parentTypes: (types) => types.filter((type) => systemName(type) === 'region'),
  },
  devices: {
    titleKey: 'routes.devices',
    fields: ['name', 'entity_type_id', 'parent_id', 'level', 'group_ids', 'interface'],
    shapes: ['point', 'polygon', 'circle'],
    types: (types) => types.filter((type) => systemName(type) !== 'region' && systemName(type) !== 'zone'),
    parentTypes: (types) => types.filter((type) => systemName(type) === 'region' || systemName(type) === 'zone'),
  },
};

const pathOf = (field: string) => field.split('.');

/** The form's schema: the model's schema with only the kind's fields (a nested one keeps its parent). */
export function formSchemaOf(model: ModelSchema, fields: readonly string[]): FieldSchema {
  const pick = (schema: FieldSchema, paths: string[][]): FieldSchema => {
    const properties: Record<string, FieldSchema> = {};
    for (const [head, ...rest] of paths) {
      const field = schema.properties![head];
      if (!rest.length) {
        properties[head] = field;
        continue;
      }
      // a declared attribute: its own widget, in a section without the parent's JSON editor
      const { 'x-widget': _json, ...section } = field;
      properties[head] = { ...section, properties: { ...properties[head]?.properties, ...pick(field, [rest]).properties } } as FieldSchema;
    }
    return { ...schema, properties, required: (schema.required ?? []).filter((field) => field in properties) } as FieldSchema;
  };
  return pick(model as unknown as FieldSchema, fields.map(pathOf));
}

/** The form's starting values: the entity's values of the kind's fields. */
export function formValuesOf(entity: object, fields: readonly string[]): Record<string, unknown> {
  const values: Record<string, any> = {};
  for (const path of fields.map(pathOf)) {
    const value = path.reduce<any>((node, key) => node?.[key], entity);
    if (value === undefined) continue;
    path.slice(0, -1).reduce((node, key) => (node[key] ??= {}), values)[path[path.length - 1]] = value;
  }
  return values;
}
