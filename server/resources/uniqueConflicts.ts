// The unique constraints a model declares (its binding's `conflicts`: a device's access token):
// a write that violates one is answered with the model's 4xx, never a 500.
import { violatedUniqueConstraint } from '../db/databaseErrors.ts';
import type { ModelBinding } from './bindings.ts';

export async function refusingConflicts<T>(binding: ModelBinding, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const constraint = violatedUniqueConstraint(error);
    const conflict = constraint ? binding.conflicts?.[constraint] : undefined;
    throw conflict ? conflict() : error;
  }
}
