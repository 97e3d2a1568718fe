// Where lighting profiles apply (their entity_ids and group_ids): a lamp, zone, region or group
// follows one profile at a time; the first target of a write that another profile already holds.
import { sql } from 'drizzle-orm';
import type { Tx } from './database.ts';
import { intArray, rows } from './rows.ts';

export interface TakenTarget { kind: 'entity' | 'group'; id: number; name: unknown; profile: string }

/** The first of `entityIds` and `groupIds` held by a profile other than `profileId`, with that profile's name. */
export async function takenProfileTarget(tx: Tx, profileId: number | undefined, entityIds: number[], groupIds: number[]): Promise<TakenTarget | undefined> {
  if (!entityIds.length && !groupIds.length) return undefined;
  const other = profileId === undefined ? sql`true` : sql`p.id <> ${profileId}`;
  const [taken] = await rows<TakenTarget>(tx, sql`
    (SELECT 'entity' AS kind, e.id, e.name, p.name AS profile FROM profile_entities pe
      JOIN entities e ON e.id = pe.entity_id JOIN profiles p ON p.id = pe.profile_id
      WHERE pe.entity_id = ANY(${intArray(entityIds)}) AND ${other} ORDER BY e.id LIMIT 1)
    UNION ALL
    (SELECT 'group', g.id, to_jsonb(g.name), p.name FROM profile_groups pg
      JOIN groups g ON g.id = pg.group_id JOIN profiles p ON p.id = pg.profile_id
      WHERE pg.group_id = ANY(${intArray(groupIds)}) AND ${other} ORDER BY g.id LIMIT 1)
    LIMIT 1`);
  return taken;
}
