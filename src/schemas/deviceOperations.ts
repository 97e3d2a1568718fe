// Arguments of the device operations: entity_credentials(id), entity_csv_header_definition(id),
// rotate_entity_credentials(id) and import_telemetries_from_csv(id, data). An import call carries
// at most IMPORT_ROWS_PER_CALL rows; a larger file (up to 2 MB, SPEC §5) is sent in several calls,
// which also lets the upload show its progress.
import type { FromSchema } from 'json-schema-to-ts';
import { idSchema } from './bounds.ts';

export const IMPORT_ROWS_PER_CALL = 5_000;
/** Largest CSV file the upload accepts (SPEC §5). */
export const CSV_UPLOAD_MAX_BYTES = 2 * 1024 * 1024;

export const deviceIdArgsSchema = {
  $id: 'deviceIdArgs',
  type: 'object', additionalProperties: false, required: ['id'],
  properties: { id: idSchema },
} as const;
export type DeviceIdArgs = FromSchema<typeof deviceIdArgsSchema>;

/** A row: column name (from the header definition) → the cell as text, or a number or boolean. */
const importRow = {
  type: 'object', maxProperties: 256,
  propertyNames: { maxLength: 255 },
  additionalProperties: { type: ['string', 'number', 'boolean'], maxLength: 65_536 },
} as const;

export const importTelemetryArgsSchema = {
  $id: 'importTelemetryArgs',
  type: 'object', additionalProperties: false, required: ['id', 'data'],
  properties: {
    id: idSchema,
    data: { type: 'array', minItems: 1, maxItems: IMPORT_ROWS_PER_CALL, items: importRow },
    /** The number of the first row in the file (1 = the first data row), so refusals name file rows. */
    first_row: { type: 'integer', minimum: 1, maximum: 10_000_000, default: 1 },
    /** Check only: the counts and refusals as an import would answer them, nothing stored. */
    dry_run: { type: 'boolean', default: false },
  },
} as const;
export type ImportTelemetryArgs = FromSchema<typeof importTelemetryArgsSchema>;
