// Pure parts of the engine's web side: conditional fields, form values, CSV cells, cron checks.
import { describe, expect, it } from 'vitest';
import { effectiveSchema } from '../../../src/components/schema/conditions.ts';
import { cleanValues, defaultsOf } from '../../../src/components/schema/formValues.ts';
import { csvCell } from '../../../src/pages/resources/csvExport.ts';
import { cronProblem, runnableCron } from '../../../src/schemas/cron.ts';
import type { FieldSchema } from '../../../src/schemas/model.ts';
import { watcherSchema } from '../../../src/schemas/watcher.ts';

const condition = watcherSchema.properties.condition as unknown as FieldSchema;

describe('conditional fields', () => {
  it('show the threshold with the type its kind names, and the upper one only for between', () => {
    const number = effectiveSchema(condition, { operator: '>', kind: 'number' });
    expect(number.visible.has('value')).toBe(true);
    expect(number.visible.has('value_to')).toBe(false);
    expect(number.properties.value.type).toBe('number');
    const between = effectiveSchema(condition, { operator: 'between', kind: 'date' });
    expect(between.visible.has('value_to')).toBe(true);
    expect(between.required.has('value_to')).toBe(true);
    expect(between.properties.value_to['x-widget']).toBe('datetime');
    expect(effectiveSchema(condition, { operator: '>', kind: 'now' }).visible.has('value')).toBe(false);
  });
});

describe('form values', () => {
  it('start from every default, nested ones too', () => {
    expect(defaultsOf(watcherSchema as unknown as FieldSchema)).toMatchObject({
      query: { aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number' }, interval: 60, status: 'active', entity_ids: [],
    });
  });

  it('leave out empty optional values and read-only fields', () => {
    expect(cleanValues(watcherSchema as unknown as FieldSchema, { name: 'A', alert: true, definition: { email_body: '', severity: 'error' }, id: 3 }))
      .toEqual({ name: 'A', definition: { severity: 'error' } });
  });
});

describe('CSV cells', () => {
  it.each([['=SUM(A1)', "'=SUM(A1)"], ['+1', "'+1"], ['-2', "'-2"], ['@cmd', "'@cmd"], ['plain', 'plain'], [5, '5'], [null, '']])('%s → %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

describe('cron expressions (SPEC §5)', () => {
  it.each(['* * * * *', '0 6 * * 1', '*/15 0-23 1,15 1-12 0-6', '0 0 0 1 0'])('accepts %s', (expression) => expect(cronProblem(expression)).toBeUndefined());
  it.each([['60 * * * *', 'minute'], ['* 24 * * *', 'hour'], ['* * 32 * *', 'day'], ['* * * 0 *', 'month'], ['* * * * 7', 'weekday'], ['* * *', 'fields'], ['*/0 * * * *', 'minute']])(
    'refuses %s (%s)', (expression, field) => expect(cronProblem(expression)).toBe(field),
  );
  it.each(['0 0 31 2 *', '0 3 30 2 *', '0 0 31 4 *', '0 0 0 * *', '0 0 30,31 2 *', '0 0 0/31 2 *'])('knows %s never runs', (expression) => {
    expect(cronProblem(expression)).toBeUndefined(); // each field in its range (SPEC §5)
    expect(runnableCron(expression)).toBeUndefined();
  });
  it.each([
    ['0 6 * * 1', '0 6 * * 1'],
    ['0 0 29 2 *', '0 0 29 2 *'], // leap years
    ['0 0 0-3 * *', '0 0 1,2,3 * *'],
    ['0 0 31 2,3 *', '0 0 31 2,3 *'],
    ['0 6 0 * 1', '0 6 * * 1'], // no day of month, but Mondays
    ['0 0 0/10 * *', '0 0 10,20,30 * *'],
    ['0 0 25/5 * *', '0 0 25,30 * *'],
  ])('reads %s as %s', (expression, runnable) => expect(runnableCron(expression)).toBe(runnable));
});
