// The tenant's frame origins (src/schemas/frameOrigins.ts): replaced whole by a board
// administrator of the tenant; everyone of the tenant reads them with GET /tenant.
import { FRAME_ORIGINS_ACCESS, type FrameOrigins } from '../../src/schemas/frameOrigins.ts';
import type { Database } from '../db/database.ts';
import { setTenantFrameOrigins } from '../db/directoryQueries.ts';
import { requireModule, requirePermission, type Caller } from '../auth/caller.ts';

export function authorizeFrameOrigins(caller: Caller): void {
  requireModule(caller, FRAME_ORIGINS_ACCESS.module);
  requirePermission(caller, FRAME_ORIGINS_ACCESS.permission);
}

/** `changed`: the tenant's cached reads are stale (this instance at once; the others hear the tenants table's trigger). */
export function frameOriginsService(db: Database, changed: (tenantId: string) => void) {
  return {
    async replace(caller: Caller, { origins }: FrameOrigins): Promise<FrameOrigins> {
      authorizeFrameOrigins(caller);
      // one spelling per origin: host names are case-insensitive
      const kept = [...new Set(origins.map((origin) => origin.toLowerCase()))];
      await db.tenantTx(caller.tenantId, (tx) => setTenantFrameOrigins(tx, caller.tenantId, kept));
      changed(caller.tenantId);
      return { origins: kept };
    },
  };
}
export type FrameOriginsService = ReturnType<typeof frameOriginsService>;
