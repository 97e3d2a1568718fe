// POST /update-password; the same rules validate the change-password form.
import type { FromSchema } from 'json-schema-to-ts';

export const PASSWORD_MIN_LENGTH = 8;

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
        current_password: { type: 'string', minLength: 1, maxLength: 1024 },
        password: { type: 'string', minLength: PASSWORD_MIN_LENGTH, maxLength: 1024 },
        password_confirmation: { type: 'string', minLength: 1, maxLength: 1024 },
      },
    },
  },
} as const;
export type UpdatePasswordBody = FromSchema<typeof updatePasswordSchema>;
