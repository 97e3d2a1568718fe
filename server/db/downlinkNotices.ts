// What devices are to be told, announced to every instance (PostgreSQL notifications, delivered on
// commit): the instance that holds a device's MQTT connection, or its waiting HTTP request, tells
// it. Payloads stay far under PostgreSQL's 8,000 bytes: ids go in chunks.
import { sql } from 'drizzle-orm';
import { CHANNELS, type Tx } from './database.ts';

const IDS_PER_NOTICE = 500;

export interface CommandsNotice { t: string; c: number[] }
export interface SharedAttributesNotice { t: string; e: number[]; a: Record<string, unknown> }

const chunks = <T>(items: T[]) => Array.from({ length: Math.ceil(items.length / IDS_PER_NOTICE) }, (_, i) => items.slice(i * IDS_PER_NOTICE, (i + 1) * IDS_PER_NOTICE));

async function notify(tx: Tx, channel: string, payloads: object[]) {
  for (const payload of payloads) await tx.execute(sql`SELECT pg_notify(${channel}, ${JSON.stringify(payload)})`);
}

/** Announces queued commands (by id). */
export function announceCommands(tx: Tx, tenantId: string, commandIds: number[]) {
  return notify(tx, CHANNELS.deviceCommandsQueued, chunks(commandIds).map((c): CommandsNotice => ({ t: tenantId, c })));
}

/** Announces shared attribute changes; devices given the same attributes share a notice. */
export function announceSharedAttributes(tx: Tx, tenantId: string, changes: { entityId: number; attributes: Record<string, unknown> }[]) {
  const byAttributes = new Map<string, number[]>();
  for (const change of changes) {
    const key = JSON.stringify(change.attributes);
    const ids = byAttributes.get(key);
    if (ids) ids.push(change.entityId);
    else byAttributes.set(key, [change.entityId]);
  }
  const notices = [...byAttributes].flatMap(([attributes, ids]) => chunks(ids).map((e): SharedAttributesNotice => ({ t: tenantId, e, a: JSON.parse(attributes) })));
  return notify(tx, CHANNELS.sharedAttributesChanged, notices);
}
