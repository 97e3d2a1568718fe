// Lighting profile: dimming or switching intervals, astro clock, light sensor, exceptions and
// summer/winter variants (SPEC §3, §5).
import type { FromSchema } from 'json-schema-to-ts';
import { INTERVAL_EVENTS, PROFILE_TYPES } from './enums.ts';
import { colour, date, entityIds, groupIds, integer, name, recordId, timeOfDay, timestamp, uuid } from './fields.ts';

export const MAX_PROFILE_INTERVALS = 16;

const intervals = {
  type: 'array',
  maxItems: MAX_PROFILE_INTERVALS,
  default: [],
  'x-errors': { maxItems: 'PROFILE_TOO_MANY_INTERVALS' },
  items: {
    type: 'object', additionalProperties: false, required: ['value'],
    properties: {
      from_event: { type: 'string', enum: INTERVAL_EVENTS, default: 'time', 'x-widget': 'enum', 'x-order': 1 },
      from: { ...timeOfDay, 'x-conditional': true, 'x-order': 2 },
      from_offset: { ...integer(-180, 180), default: 0, 'x-conditional': true, 'x-order': 3 },
      to_event: { type: 'string', enum: INTERVAL_EVENTS, default: 'time', 'x-widget': 'enum', 'x-order': 4 },
      to: { ...timeOfDay, 'x-conditional': true, 'x-order': 5 },
      to_offset: { ...integer(-180, 180), default: 0, 'x-conditional': true, 'x-order': 6 },
      value: { ...integer(0, 100), 'x-label': 'models.profile.fields.level', 'x-order': 7 },
    },
    // an end is a time of day unless its event is sunset or sunrise (docs/lighting.md)
    allOf: [
      { if: { required: ['from_event'], properties: { from_event: { enum: ['sunset', 'sunrise'] } } }, then: { properties: { from_offset: {} } }, else: { required: ['from'], properties: { from: {} } } },
      { if: { required: ['to_event'], properties: { to_event: { enum: ['sunset', 'sunrise'] } } }, then: { properties: { to_offset: {} } }, else: { required: ['to'], properties: { to: {} } } },
    ],
  },
} as const;

const season = {
  type: 'object', additionalProperties: false,
  properties: { from: date, to: date, intervals },
} as const;

export const profileSchema = {
  $id: 'profile',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type'],
  'x-access': {
    read: { modules: ['factory-studio'] }, create: { modules: ['factory-studio'] },
    update: { modules: ['factory-studio'] }, delete: { modules: ['factory-studio'] },
  },
  'x-api': {
    rest: { list: '/profile-list', create: '/create-profile', update: '/update-profile', delete: '/delete-profile' },
    graphql: { list: 'profile_list', one: 'profile' },
  },
  'x-title': 'name',
  'x-default-sort': { field: 'name', order: 'asc' },
  properties: {
    id: recordId,
    tenant_id: { ...uuid, readOnly: true },
    name: { ...name, 'x-column': true, 'x-search': true, 'x-sort': true, 'x-order': 1 },
    type: { type: 'string', enum: PROFILE_TYPES, default: 'dimming_profile', 'x-widget': 'enum', 'x-column': true, 'x-filter': true, 'x-sort': true, 'x-order': 2 },
    definition: {
      type: 'object', additionalProperties: false, default: {}, 'x-order': 3, 'x-group': 'behaviour',
      properties: {
        color: { ...colour, default: '#fadb14', 'x-order': 1 },
        astro_clock: { type: 'boolean', default: false, 'x-widget': 'switch', 'x-order': 2 },
        dusk_offset: { ...integer(-180, 180), 'x-conditional': true, 'x-order': 3 },
        dawn_offset: { ...integer(-180, 180), 'x-conditional': true, 'x-order': 4 },
        light_sensor: {
          type: 'object', additionalProperties: false, 'x-order': 5,
          properties: {
            enabled: { type: 'boolean', default: false, 'x-widget': 'switch' },
            dawn: { ...integer(0, 100_000), 'x-conditional': true },
            dusk: { ...integer(0, 100_000), 'x-conditional': true },
            value: { ...integer(0, 100), 'x-conditional': true },
            window_from: { ...timeOfDay, 'x-conditional': true },
            window_to: { ...timeOfDay, 'x-conditional': true },
          },
          allOf: [{
            if: { required: ['enabled'], properties: { enabled: { const: true } } },
            then: { required: ['dawn', 'dusk'], properties: { dawn: {}, dusk: {}, value: {}, window_from: {}, window_to: {} } },
          }],
        },
        intervals: { ...intervals, 'x-order': 6 },
        exceptions: {
          type: 'array', maxItems: 100, default: [], 'x-order': 7,
          items: { type: 'object', additionalProperties: false, required: ['date'], properties: { date, value: integer(0, 100) } },
        },
        summer: { ...season, 'x-order': 8 },
        winter: { ...season, 'x-order': 9 },
      },
      allOf: [{
        if: { required: ['astro_clock'], properties: { astro_clock: { const: true } } },
        then: { properties: { dusk_offset: {}, dawn_offset: {} } },
      }],
    },
    // Where the profile applies: lamps, or the lamps under a zone or region, or in a group. A lamp,
    // zone, region or group follows one profile at a time; a lamp follows the nearest (docs/lighting.md).
    entity_ids: { ...entityIds, 'x-order': 4 },
    group_ids: { ...groupIds, 'x-order': 5 },
    created_at: { ...timestamp, 'x-column': true, 'x-sort': true },
    updated_at: { ...timestamp, 'x-sort': true },
  },
} as const;
export type Profile = FromSchema<typeof profileSchema>;
