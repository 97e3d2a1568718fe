// Read-only maintenance (src/schemas/maintenanceWindow.ts): while a tenant's read-only window is in
// force, every write of the tenant (REST, GraphQL mutations, devices' attributes) is refused with
// 503 MAINTENANCE_READ_ONLY, saying until when; reads, sign-in and telemetry go on, and so do the
// maintenance windows themselves (the schema's `x-writes-during-read-only`), so it can be ended.
import type { Database } from '../db/database.ts';
import { readOnlyUntil } from '../db/maintenanceQueries.ts';
import { ApiError } from '../errors.ts';

export const MAINTENANCE_READ_ONLY = 'MAINTENANCE_READ_ONLY';

export const isReadOnlyRefusal = (error: unknown): error is ApiError => error instanceof ApiError && error.items[0]?.code === MAINTENANCE_READ_ONLY;

function readOnlyRefusal(until: string): ApiError {
  const error = new ApiError(503, MAINTENANCE_READ_ONLY, `Terrasight is read-only for maintenance until ${until}.`, undefined, { until });
  error.retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(until) - Date.now()) / 1000));
  return error;
}

export interface MaintenanceGuard {
  /** Throws the 503 refusal while a read-only window of the tenant is in force. */
  refuseWhileReadOnly(tenantId: string): Promise<void>;
}

export function maintenanceGuard(db: Database): MaintenanceGuard {
  return {
    async refuseWhileReadOnly(tenantId) {
      const until = await db.tenantTx(tenantId, readOnlyUntil);
      if (until) throw readOnlyRefusal(until);
    },
  };
}
