// A device's credentials and telemetry import: entity_credentials, rotate_entity_credentials,
// entity_csv_header_definition and import_telemetries_from_csv. Credentials are for those who
// may edit the device (the entity model's update access); the header definition for those who
// may read it; an import writes through the same telemetry writer as live data. Each operation
// checks the caller's access before it reads its arguments.
import {
  deviceIdArgsSchema, importTelemetryArgsSchema, type DeviceIdArgs, type ImportTelemetryArgs,
} from '../../src/schemas/deviceOperations.ts';
import { validated } from '../schemaValidator.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { accessTokenOf, rotateAccessToken, telemetryColumns } from '../db/deviceQueries.ts';
import type { Database } from '../db/database.ts';
import { registeredModel } from '../resources/registry.ts';
import { authorize } from '../resources/resourceAccess.ts';
import { refusingConflicts } from '../resources/uniqueConflicts.ts';
import { readImportRows, unknownColumns, type RowRefusal } from '../telemetry/csvImportRows.ts';
import type { TelemetryPoint } from '../telemetry/telemetryPoint.ts';
import type { TelemetryWriter } from '../telemetry/telemetryWriter.ts';
import type { Caller } from '../auth/caller.ts';
import { ENTITY_NOT_FOUND } from '../resources/rules/entityRules.ts';

/** Refusals listed in one answer, at most (all are counted). */
const MAX_LISTED_REFUSALS = 100;

export interface ImportResult { rows: number; valid: number; stored: number; refused_total: number; refused: RowRefusal[] }

export interface DeviceServiceHooks {
  /** The device's token changed: forget it and close its open connections. */
  credentialsRotated(tenantId: string, entityId: number): void;
}

export function deviceService(db: Database, writer: TelemetryWriter, hooks: DeviceServiceHooks) {
  const entitySchema = () => registeredModel('entity').schema;
  const found = <T>(value: T | undefined): T => {
    if (value === undefined) throw notFound(ENTITY_NOT_FOUND);
    return value;
  };
  const idOf = (args: Record<string, unknown>) => validated<DeviceIdArgs>(deviceIdArgsSchema, args, 'args').id;

  return {
    async credentials(caller: Caller, args: Record<string, unknown>) {
      authorize(caller, entitySchema(), 'update');
      const id = idOf(args);
      const token = found(await db.tenantTx(caller.tenantId, (tx) => accessTokenOf(tx, id)));
      return { id, credentialsType: 'ACCESS_TOKEN', credentialsId: token };
    },

    async rotateCredentials(caller: Caller, args: Record<string, unknown>) {
      authorize(caller, entitySchema(), 'update');
      const id = idOf(args);
      // a new random token that some device already has is as unlikely as guessing it; answered like any token conflict
      const token = found(await refusingConflicts(registeredModel('entity').binding, () => db.tenantTx(caller.tenantId, (tx) => rotateAccessToken(tx, id))));
      hooks.credentialsRotated(caller.tenantId, id);
      return { id, credentialsType: 'ACCESS_TOKEN', credentialsId: token };
    },

    async csvHeaderDefinition(caller: Caller, args: Record<string, unknown>) {
      authorize(caller, entitySchema(), 'read');
      const id = idOf(args);
      const columns = found(await db.tenantTx(caller.tenantId, (tx) => telemetryColumns(tx, id)));
      return { id, json_csv_header_definition: columns };
    },

    /** `dry_run`: check the rows and answer the counts, writing nothing (the upload's validation step). */
    async importTelemetry(caller: Caller, args: Record<string, unknown>): Promise<ImportResult> {
      authorize(caller, entitySchema(), 'update');
      const checked = validated<ImportTelemetryArgs>(importTelemetryArgsSchema, args, 'args');
      const { id, first_row: firstRow = 1, dry_run: dryRun = false } = checked;
      const data = checked.data as Record<string, string | number | boolean>[];
      const columns = found(await db.tenantTx(caller.tenantId, (tx) => telemetryColumns(tx, id)));
      const unknown = unknownColumns(data, columns);
      if (unknown.length) {
        throw ApiError.of(400, unknown.slice(0, 10).map((name) => ({
          code: 'CSV_UNKNOWN_COLUMN', field: name, message: `The column ${name.slice(0, 100)} is not in the device's CSV header definition`,
        })));
      }
      if (!data.some((row) => 'ts' in row)) throw badRequest('CSV_MISSING_COLUMN', 'The column ts is missing', 'ts');
      const { valid, refused } = readImportRows(data, columns, firstRow, Date.now());
      const points: TelemetryPoint[] = valid.flatMap((row) =>
        row.values.map(([key, value]) => ({ tenantId: caller.tenantId, entityId: id, key, ts: row.ts, value })));
      if (!dryRun) await writer.write(points);
      return { rows: data.length, valid: valid.length, stored: dryRun ? 0 : valid.length, refused_total: refused.length, refused: refused.slice(0, MAX_LISTED_REFUSALS) };
    },
  };
}

export type DeviceService = ReturnType<typeof deviceService>;
