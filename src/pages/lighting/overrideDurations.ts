// How long an operator's override may last, as the override control offers it: a quarter of an
// hour, an hour, four hours, or until this time tomorrow — the longest the server allows.
import { lightingOverrideArgsSchema, MAX_OVERRIDE_MINUTES } from '../../schemas/lighting.ts';

export const OVERRIDE_MINUTES = [15, 60, 240, MAX_OVERRIDE_MINUTES] as const;
export const DEFAULT_OVERRIDE_MINUTES = 60;

/** The level's bounds, as the override's arguments declare them. */
export const OVERRIDE_LEVEL = {
  min: lightingOverrideArgsSchema.properties.level.minimum,
  max: lightingOverrideArgsSchema.properties.level.maximum,
} as const;
