// A profile's light sensor switches the lamp on below `dusk` lux and off above `dawn` lux, keeping
// its state in between (docs/lighting.md): dawn must be the higher threshold, or the lamp would
// flicker between the two. JSON Schema cannot compare two fields, so the rule lives here, checked
// by the profile form and the server's profile rules alike (recordRules.ts).

export const LIGHT_SENSOR_MESSAGES = {
  PROFILE_SENSOR_THRESHOLDS: 'Dawn (lx) must be higher than dusk (lx): the light switches on below dusk and off above dawn.',
} as const;

interface LightSensorDefinition {
  light_sensor?: { enabled?: boolean; dawn?: number; dusk?: number };
}

/** The problem of an enabled sensor whose dawn threshold is not above its dusk threshold, else undefined. */
export function lightSensorProblem(definition: LightSensorDefinition | undefined) {
  const sensor = definition?.light_sensor;
  if (!sensor?.enabled || typeof sensor.dawn !== 'number' || typeof sensor.dusk !== 'number' || sensor.dawn > sensor.dusk) return undefined;
  const code = 'PROFILE_SENSOR_THRESHOLDS' as const;
  return { code, field: 'definition.light_sensor.dawn', message: LIGHT_SENSOR_MESSAGES[code] };
}
