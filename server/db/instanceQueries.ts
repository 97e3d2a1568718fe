// The instances sharing the database (server_instances), each seen every few seconds by its own
// heartbeat; one not seen for long is dead, and the first instance to find it so gives up its
// device connections.
import { sql } from 'drizzle-orm';
import { releaseConnections, type ConnectivityChange } from './connectionQueries.ts';
import type { Database } from './database.ts';
import { rows } from './rows.ts';

/** Registers the instance, or marks it seen; answers false when it was not registered (found dead meanwhile). */
export async function instanceSeen(db: Database, instanceId: string): Promise<boolean> {
  const [row] = await db.systemQuery<{ existed: boolean }>(sql`
    INSERT INTO server_instances (id) VALUES (${instanceId})
    ON CONFLICT (id) DO UPDATE SET seen_at = now()
    RETURNING (xmax <> 0) AS existed`);
  return row.existed;
}

/** Ends the instance's registration (a clean shutdown): its connections are given up as a dead one's. */
export function instanceStopped(db: Database, instanceId: string, ms: number): Promise<ConnectivityChange[]> {
  return db.systemTx(async (tx) => {
    await tx.execute(sql`DELETE FROM server_instances WHERE id = ${instanceId}`);
    return releaseConnections(tx, [instanceId], ms);
  });
}

/** Removes the instances not seen for `deadAfterMs` and gives up their connections; answers the devices now inactive. */
export function sweepDeadInstances(db: Database, deadAfterMs: number, ms: number): Promise<ConnectivityChange[]> {
  return db.systemTx(async (tx) => {
    const dead = await rows<{ id: string }>(tx, sql`
      DELETE FROM server_instances WHERE id IN (
        SELECT id FROM server_instances WHERE seen_at < now() - make_interval(secs => ${deadAfterMs / 1000}) FOR UPDATE SKIP LOCKED)
      RETURNING id::text AS id`);
    return dead.length === 0 ? [] : releaseConnections(tx, dead.map((row) => row.id), ms);
  });
}
