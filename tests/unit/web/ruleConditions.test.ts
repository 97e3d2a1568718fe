// The map colours a device by the first rule its value meets (a MapLibre expression); the server
// counts a cluster's devices by the same rules (ruleMet). Both decide alike for every kind of value.
import { createExpression } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { ruleColourExpression, ruleCondition } from '../../../src/components/map/core/colourRules.ts';
import { isRuleCondition, meetsRule, ruleMet, type RuleCondition } from '../../../src/shared/map/ruleConditions.ts';

const RULES: RuleCondition[] = [
  { operator: '>', value: 10 }, { operator: '>=', value: 10 }, { operator: '<', value: 0 }, { operator: '<=', value: 0 },
  { operator: 'between', value: -1, to: 1 }, { operator: '==', value: 5 }, { operator: '==', value: 'on' }, { operator: '==', value: true },
  { operator: '!=', value: false }, { operator: '!=', value: 'off' }, { operator: '!=', value: 0 },
];
const VALUES: unknown[] = [null, 0, -0.5, 1, 5, 10, 10.5, -3, '5', 'on', 'off', '', true, false, { a: 1 }, [1, 2]];

/** What MapLibre's expression makes of a value (`null` for an entity without the attribute). */
function mapLibreSays(expression: unknown, value: unknown): unknown {
  const parsed = createExpression(expression as never, { type: 'number' } as never);
  if (parsed.result !== 'success') throw new Error(JSON.stringify(parsed.value));
  return parsed.value.evaluate({ zoom: 0 }, { type: 'Point', properties: value === null ? {} : { value } } as never);
}

describe('a rule condition', () => {
  it('is met on the server exactly where the map\'s expression is met', () => {
    for (const rule of RULES) {
      for (const value of VALUES) {
        const drawn = mapLibreSays(['case', ruleCondition(rule), 1, 0], value) === 1;
        expect(meetsRule(rule, value), `${JSON.stringify(rule)} on ${JSON.stringify(value)}`).toBe(drawn);
      }
    }
  });

  it('gives the first rule met, as the map\'s colour does, and the count of rules for none', () => {
    const rules = RULES.slice(0, 6);
    const indexed = ruleColourExpression(rules.map((rule, index) => ({ ...rule, colour: `#00000${index}` })), '#000009');
    for (const value of VALUES) {
      const colour = String(mapLibreSays(indexed.map((part) => (typeof part === 'string' && part.startsWith('#') ? Number(part.slice(-1)) : part)), value));
      expect(ruleMet(rules, value), JSON.stringify(value)).toBe(Math.min(Number(colour), rules.length));
    }
  });

  it('is whole only with numbers to order by and a range in order', () => {
    for (const rule of RULES) expect(isRuleCondition(rule)).toBe(true);
    for (const bad of [{ operator: '>', value: '3' }, { operator: 'between', value: 3 }, { operator: 'between', value: 3, to: 1 }, { operator: '>', value: 1, to: 2 },
      { operator: '==', value: { a: 1 } }, { operator: 'like', value: 1 }, null]) {
      expect(isRuleCondition(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
