// Field building blocks of the model schemas (src/schemas/<model>.ts). Each is bounded (see
// bounds.ts) and carries the widget the generated form uses for it.
import { idSchema, INT4_MAX, NO_NUL } from './bounds.ts';
import { SUPPORTED_LANGUAGES } from '../shared/i18n/languages.ts';

/** Record id (server-assigned). */
export const recordId = { ...idSchema, readOnly: true, 'x-column': { width: 80 }, 'x-sort': true } as const;

/** One line of text. */
export const text = <N extends number>(maxLength: N) => ({ type: 'string', maxLength, pattern: NO_NUL, 'x-widget': 'text' }) as const;

/** A required name: 1 to 200 characters, not only spaces. */
export const name = { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$', 'x-widget': 'text' } as const;

/** Several lines of text. */
export const longText = { type: 'string', maxLength: 10_000, pattern: NO_NUL, 'x-widget': 'textarea' } as const;

/** A text per interface language ({ en, sk, … }); at least one. */
export const multilingualText = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: Object.fromEntries(SUPPORTED_LANGUAGES.map((language) => [language, { type: 'string', maxLength: 500, pattern: NO_NUL }])) as Record<
    (typeof SUPPORTED_LANGUAGES)[number],
    { type: 'string'; maxLength: 500; pattern: typeof NO_NUL }
  >,
  'x-widget': 'multilingual',
} as const;

/** A CSS colour #rrggbb. */
export const colour = { type: 'string', pattern: '^#[0-9a-fA-F]{6}$', maxLength: 7, 'x-widget': 'colour', 'x-errors': { pattern: 'COLOUR_INVALID' } } as const;

/** A whole number within bounds. */
export const integer = <Min extends number, Max extends number>(minimum: Min, maximum: Max) =>
  ({ type: 'integer', minimum, maximum, 'x-widget': 'number' }) as const;

/** A number within bounds. */
export const number = <Min extends number, Max extends number>(minimum: Min, maximum: Max) =>
  ({ type: 'number', minimum, maximum, 'x-widget': 'number' }) as const;

/** An instant, ISO 8601 with its offset. */
export const dateTime = { type: 'string', format: 'date-time', maxLength: 40, 'x-widget': 'datetime' } as const;

/** A calendar date YYYY-MM-DD. */
export const date = { type: 'string', format: 'date', maxLength: 10, 'x-widget': 'date' } as const;

/** A time of day HH:MM. */
export const timeOfDay = { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', maxLength: 5, 'x-widget': 'time' } as const;

/** Server-managed timestamp shown in lists. */
export const timestamp = { type: 'string', maxLength: 40, readOnly: true, 'x-widget': 'datetime' } as const;

/** A user's or a resource's id (kept in a uuid column). */
export const uuid = { type: 'string', format: 'uuid', maxLength: 36, pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' } as const;

/** Who changed a record last (a user id), set by the server. */
export const lastUpdatedBy = { type: ['string', 'null'], format: 'uuid', maxLength: 36, readOnly: true } as const;

/** Ids of the tenant's entities, picked by name. */
export const entityIds = { type: 'array', maxItems: 500, uniqueItems: true, items: idSchema, default: [], 'x-widget': 'entities' } as const;

/** Ids of the tenant's entity types. */
export const entityTypeIds = { type: 'array', maxItems: 100, uniqueItems: true, items: idSchema, default: [], 'x-widget': 'entity-types' } as const;

/** Ids of the tenant's groups. */
export const groupIds = { type: 'array', maxItems: 100, uniqueItems: true, items: idSchema, default: [], 'x-widget': 'groups' } as const;

/** A free JSON object (attributes), bounded in keys. */
export const attributes = { type: 'object', maxProperties: 200, default: {}, 'x-widget': 'json' } as const;

/** active / inactive (SPEC §4). */
export const status = {
  type: 'string', enum: ['active', 'inactive'], default: 'active', 'x-widget': 'enum',
  'x-tags': { active: 'green', inactive: 'default' }, 'x-filter': true, 'x-sort': true, 'x-column': true,
} as const;

/** The largest page of a list. */
export const MAX_PAGE_SIZE = 1000;
export const pageQuery = {
  page: { type: 'integer', minimum: 1, maximum: INT4_MAX },
  per_page: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
} as const;
