// The profile schema as the server and the form check it (src/schemas/profile.ts, ajv with the
// shared options): at most 16 intervals, interval ends as a time of day or an astro event, and the
// light sensor's thresholds (src/schemas/lightSensor.ts, a record rule); and which interval fields
// the form shows.
import { describe, expect, it } from 'vitest';
import { effectiveSchema } from '../../../src/components/schema/conditions.ts';
import { createAjv } from '../../../src/schemas/ajvInstance.ts';
import { createInputSchema, type FieldSchema, type ModelSchema } from '../../../src/schemas/model.ts';
import { profileSchema } from '../../../src/schemas/profile.ts';
import { RECORD_RULES } from '../../../src/schemas/recordRules.ts';

const validate = createAjv().compile(createInputSchema(profileSchema as unknown as ModelSchema));
const profile = (definition: Record<string, unknown>) => ({ name: 'Street', type: 'dimming_profile', definition });
const firstError = (record: unknown) => (validate(structuredClone(record)) ? undefined : validate.errors?.[0]);

describe('profile intervals', () => {
  const fixed = (i: number) => ({ from: `${String(i).padStart(2, '0')}:00`, to: `${String(i).padStart(2, '0')}:30`, value: 50 });

  it('at most 16; the 17th is refused with its own code', () => {
    expect(firstError(profile({ intervals: Array.from({ length: 16 }, (_v, i) => fixed(i)) }))).toBeUndefined();
    const error = firstError(profile({ intervals: Array.from({ length: 17 }, (_v, i) => fixed(i)) }));
    expect(error?.keyword).toBe('maxItems');
    expect((error?.parentSchema as FieldSchema)['x-errors']?.maxItems).toBe('PROFILE_TOO_MANY_INTERVALS');
  });

  it('stored ones without events are still valid, and get the defaults', () => {
    const record = profile({ intervals: [{ from: '22:00', to: '05:00', value: 40 }] });
    expect(validate(record)).toBe(true);
    expect((record.definition.intervals as unknown[])[0]).toEqual({ from: '22:00', to: '05:00', value: 40, from_event: 'time', to_event: 'time', from_offset: 0, to_offset: 0 });
  });

  it('an end at sunset or sunrise needs no time of day', () => {
    expect(firstError(profile({ intervals: [{ from_event: 'sunset', from_offset: 15, to_event: 'sunrise', to_offset: -30, value: 70 }] }))).toBeUndefined();
    expect(firstError(profile({ intervals: [{ from_event: 'sunset', to: '23:00', value: 70 }] }))).toBeUndefined();
  });

  it('a fixed end needs its time of day', () => {
    expect(firstError(profile({ intervals: [{ to: '05:00', value: 40 }] }))).toMatchObject({ keyword: 'required', params: { missingProperty: 'from' } });
    expect(firstError(profile({ intervals: [{ from_event: 'time', to: '05:00', value: 40 }] }))).toMatchObject({ keyword: 'required', params: { missingProperty: 'from' } });
    expect(firstError(profile({ intervals: [{ from_event: 'sunrise', to_event: 'time', value: 40 }] }))).toMatchObject({ keyword: 'required', params: { missingProperty: 'to' } });
  });

  it('offsets within ±180 minutes, known events only, no other fields', () => {
    expect(firstError(profile({ intervals: [{ from_event: 'sunset', from_offset: 181, to: '05:00', value: 40 }] }))?.keyword).toBe('maximum');
    expect(firstError(profile({ intervals: [{ from_event: 'noon', from: '22:00', to: '05:00', value: 40 }] }))?.keyword).toBe('enum');
    expect(firstError(profile({ intervals: [{ from: '22:00', to: '05:00', value: 40, colour: 'red' }] }))?.keyword).toBe('additionalProperties');
  });

  it('the form shows the time of day of a fixed end and the offset of an astro one', () => {
    const item = (profileSchema.properties.definition.properties.intervals.items as unknown as FieldSchema);
    const fixedEnds = effectiveSchema(item, { from_event: 'time', to_event: 'time' });
    expect([...fixedEnds.visible].sort()).toEqual(['from', 'from_event', 'to', 'to_event', 'value']);
    expect(fixedEnds.required.has('from')).toBe(true);
    const astroStart = effectiveSchema(item, { from_event: 'sunset', to_event: 'time' });
    expect([...astroStart.visible].sort()).toEqual(['from_event', 'from_offset', 'to', 'to_event', 'value']);
    expect(astroStart.required.has('from')).toBe(false);
  });
});

describe('the light sensor', () => {
  const sensor = (dawn: number, dusk: number, enabled = true) => profile({ light_sensor: { enabled, dawn, dusk } });

  it('needs both thresholds when enabled', () => {
    expect(firstError(profile({ light_sensor: { enabled: true, dawn: 30 } }))).toMatchObject({ keyword: 'required', params: { missingProperty: 'dusk' } });
    expect(firstError(profile({ light_sensor: { enabled: false } }))).toBeUndefined();
  });

  it('refuses dawn at or below dusk when enabled', () => {
    expect(firstError(sensor(30, 20))).toBeUndefined();
    expect(RECORD_RULES.profile(sensor(30, 20))).toBeUndefined();
    for (const [dawn, dusk] of [[20, 20], [10, 20]]) {
      expect(RECORD_RULES.profile(sensor(dawn, dusk))).toEqual({
        code: 'PROFILE_SENSOR_THRESHOLDS', field: 'definition.light_sensor.dawn',
        message: 'Dawn (lx) must be higher than dusk (lx): the light switches on below dusk and off above dawn.',
      });
    }
    expect(RECORD_RULES.profile(sensor(10, 20, false))).toBeUndefined();
    expect(RECORD_RULES.profile(profile({}))).toBeUndefined();
  });
});
