// POST /update-password; the same rules validate the change-password form and API users' passwords.
import type { FromSchema } from 'json-schema-to-ts';
import { NO_NUL } from './bounds.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;
/** At least one character that is not whitespace, and no NUL. */
export const PASSWORD_PATTERN = '^(?=[\\s\\S]*\\S)[^\\u0000]*$';

/** A password as typed to prove who one is (the current one): any text but NUL. */
export const enteredPassword = { type: 'string', minLength: 1, maxLength: PASSWORD_MAX_LENGTH, pattern: NO_NUL } as const;

/** A new password: the rule of every password the platform keeps (users' and API users'). */
export const newPassword = {
  type: 'string', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, pattern: PASSWORD_PATTERN,
  'x-errors': { minLength: 'PASSWORD_TOO_SHORT', maxLength: 'PASSWORD_TOO_LONG', pattern: 'PASSWORD_BLANK' },
} as const;

export const updatePasswordSchema = {
  $id: 'updatePassword',
  type: 'object',
  additionalProperties: false,
  required: ['input'],
  properties: {
    input: {
      type: 'object',
      additionalProperties: false,
      required: ['current_password', 'password', 'password_confirmation'],
      properties: {
        current_password: enteredPassword,
        password: newPassword,
        password_confirmation: enteredPassword,
      },
    },
  },
} as const;
export type UpdatePasswordBody = FromSchema<typeof updatePasswordSchema>;
