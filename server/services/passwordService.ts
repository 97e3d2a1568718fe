// Changing one's own password (POST /update-password).
import { isCommonPassword } from '../auth/commonPasswords.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import type { Database } from '../db/database.ts';
import { findUser, updatePasswordHash } from '../db/directoryQueries.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Caller } from '../auth/caller.ts';

export const INVALID_USER_PASSWORD = 'Invalid user password';
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
export const PASSWORD_TOO_COMMON = 'This password is too common. Choose one that is harder to guess.';

export interface PasswordChange { current_password: string; password: string; password_confirmation: string }

export function passwordService(db: Database) {
  return {
    async update(caller: Caller, input: PasswordChange): Promise<void> {
      if (input.password !== input.password_confirmation) {
        throw badRequest('PASSWORDS_DO_NOT_MATCH', PASSWORDS_DO_NOT_MATCH, 'input.password_confirmation');
      }
      if (isCommonPassword(input.password)) {
        throw badRequest('PASSWORD_TOO_COMMON', PASSWORD_TOO_COMMON, 'input.password');
      }
      const user = await db.tenantTx(caller.tenantId, (tx) => findUser(tx, caller.userId));
      if (!user) throw notFound();
      if (!(await verifyPassword(user.passwordHash, input.current_password))) {
        throw badRequest('INVALID_PASSWORD', INVALID_USER_PASSWORD, 'input.current_password');
      }
      const passwordHash = await hashPassword(input.password);
      await db.tenantTx(caller.tenantId, (tx) => updatePasswordHash(tx, caller.userId, passwordHash));
    },
  };
}
