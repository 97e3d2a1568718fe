// Reads of the tenant, its users, entity types, groups and watchers.
import { asc, eq } from 'drizzle-orm';
import type { Tx } from './database.ts';
import { entityTypeGroups, entityTypes, groups, tenants, users, watchers } from './schema.ts';

export const findTenant = (tx: Tx, tenantId: string) =>
  tx.select().from(tenants).where(eq(tenants.id, tenantId)).then((r) => r[0]);

export const findUser = (tx: Tx, userId: string) =>
  tx.select().from(users).where(eq(users.id, userId)).then((r) => r[0]);

export const listUsers = (tx: Tx) =>
  tx.select({ id: users.id, username: users.username, email: users.email }).from(users).orderBy(asc(users.email));

export const updatePasswordHash = (tx: Tx, userId: string, passwordHash: string) =>
  tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));

export const listEntityTypes = (tx: Tx) => tx.select().from(entityTypes).orderBy(asc(entityTypes.id));

export const listEntityTypeGroups = (tx: Tx) => tx.select().from(entityTypeGroups).orderBy(asc(entityTypeGroups.id));

export const listGroups = (tx: Tx) => tx.select().from(groups).orderBy(asc(groups.treePath), asc(groups.id));

export const listWatchers = (tx: Tx) => tx.select().from(watchers).orderBy(asc(watchers.name), asc(watchers.id));
