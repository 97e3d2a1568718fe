// Reads of the tenant, its users, entity types and groups.
import { asc, eq, sql } from 'drizzle-orm';
import type { Tx } from './database.ts';
import { asJsonObject, rows } from './rows.ts';
import { entityTypeGroups, entityTypes, groups, users } from './schema.ts';

export const findUser = (tx: Tx, userId: string) =>
  tx.select().from(users).where(eq(users.id, userId)).then((r) => r[0]);

export const listUsers = (tx: Tx) =>
  tx.select({ id: users.id, username: users.username, email: users.email }).from(users).orderBy(asc(users.email));

/** The tenant's users holding a module (whom a board of that module's kind may be shared with). */
export const listUsersWithModule = (tx: Tx, module: string) =>
  tx.select({ id: users.id, username: users.username, email: users.email }).from(users)
    .where(sql`${module} = ANY(${users.modules})`).orderBy(asc(users.email));

export const updatePasswordHash = (tx: Tx, userId: string, passwordHash: string) =>
  tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));

export const listEntityTypes = (tx: Tx) => tx.select().from(entityTypes).orderBy(asc(entityTypes.id));

export const listEntityTypeGroups = (tx: Tx) => tx.select().from(entityTypeGroups).orderBy(asc(entityTypeGroups.id));

export const listGroups = (tx: Tx) => tx.select().from(groups).orderBy(asc(groups.treePath), asc(groups.id));

/** The tenant's time zone attribute as it is stored (row-level security: the transaction's tenant), or null. */
export async function tenantTimeZone(tx: Tx): Promise<string | null> {
  const [tenant] = await rows<{ timezone: string | null }>(tx, sql`SELECT attributes ->> 'timezone' AS timezone FROM tenants LIMIT 1`);
  return tenant?.timezone ?? null;
}

// The hot reads of the shell as the JSON text of their answers (docs/api.md "Reads"), for
// Database.tenantQuery.
export const tenantJsonQuery = (tenantId: string) =>
  asJsonObject(sql`SELECT id, entity_type_id, name, variant, attributes FROM tenants WHERE id = ${tenantId}`);

export const meJsonQuery = (userId: string) => asJsonObject(sql`
  SELECT id, username, email, coalesce(lang, 'en') AS lang, languages, modules, module_permissions, maintenance_modes
  FROM users WHERE id = ${userId}`);

/** Replaces the tenant's frame origins (attribute `iframe_origins`); the tenants table's trigger tells every instance. */
export async function setTenantFrameOrigins(tx: Tx, tenantId: string, origins: string[]): Promise<void> {
  await tx.execute(sql`UPDATE tenants SET attributes = jsonb_set(attributes, '{iframe_origins}', ${JSON.stringify(origins)}::jsonb) WHERE id = ${tenantId}`);
}
