// Tenant users for the boards' tests: Demo City users with both board modules and every board
// permission (so that only what a board is shared with them decides), signed in like any user.
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../server/auth/passwords.ts';
import { PASSWORD, type TestApp } from '../api/harness.ts';

export const BOARD_MODULES = ['performance-dashboard', 'public-api-dashboard'];
export const BOARD_PERMISSIONS = ['performance.board.*', 'public-api.board.*'];

/** Adds a Demo City user with the board modules and permissions; answers their id. */
export async function addCityUser(t: TestApp, email: string): Promise<string> {
  const passwordHash = await hashPassword(PASSWORD);
  const [row] = await t.db.systemQuery<{ id: string }>(sql`INSERT INTO users (tenant_id, username, email, password_hash, modules, module_permissions)
    SELECT id, ${email.split('@')[0]}, ${email}, ${passwordHash}, ${`{${BOARD_MODULES.join(',')}}`}::text[], ${`{${BOARD_PERMISSIONS.join(',')}}`}::text[]
    FROM tenants WHERE name = 'Demo City' RETURNING id`);
  return row.id;
}
