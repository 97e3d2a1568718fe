// A lighting profile as the lighting module reads it: the stored record's type and definition
// (src/schemas/profile.ts), every field possibly missing (records written before a field
// existed, drafts in the editor), and the level a stored value stands for.
import type { Profile } from '../../schemas/profile.ts';

/** A type with every field optional, nested ones too. */
type Loose<T> = T extends readonly (infer Item)[] ? readonly Loose<Item>[] : T extends object ? { readonly [K in keyof T]?: Loose<T[K]> } : T;

export type LightingProfile = Loose<Pick<Profile, 'type' | 'definition'>>;
export type LightingDefinition = NonNullable<LightingProfile['definition']>;
export type LightingInterval = NonNullable<LightingDefinition['intervals']>[number];

/**
 * The level (0–100) a stored value stands for: a whole number within bounds; for a switching
 * profile any value above 0 is on (100).
 */
export function levelOf(value: unknown, type: LightingProfile['type']): number {
  const level = typeof value === 'number' && Number.isFinite(value) ? Math.min(100, Math.max(0, Math.round(value))) : 0;
  return type === 'switching_profile' && level > 0 ? 100 : level;
}

/** Minutes of an astro offset: a whole number within ±180, 0 when missing. */
export const offsetMinutes = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.min(180, Math.max(-180, Math.round(value))) : 0);
