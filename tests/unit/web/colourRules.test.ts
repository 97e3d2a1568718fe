// What a user types as a colouring rule: a number where the condition compares numbers, a value
// for == and !=, a range in order; and rules read back from storage are checked the same way.
import { describe, expect, it } from 'vitest';
import { isColourRule, ruleFromInput } from '../../../src/components/map/core/colourRules.ts';
import { MAX_RULE_TEXT } from '../../../src/shared/map/ruleConditions.ts';

const RED = '#cf1322';

describe('ruleFromInput', () => {
  it('reads numbers for the order conditions and refuses anything else, naming the field', () => {
    expect(ruleFromInput('>', ' 30 ', '', RED)).toEqual({ rule: { operator: '>', value: 30, colour: RED } });
    expect(ruleFromInput('<=', '-2.5', '', RED)).toEqual({ rule: { operator: '<=', value: -2.5, colour: RED } });
    for (const text of ['', '  ', 'abc', '30°', 'Infinity', 'NaN', '1e999']) {
      expect(ruleFromInput('>=', text, '', RED), text).toEqual({ problem: 'needNumber', field: 'value' });
    }
  });

  it('needs both bounds of between, in order', () => {
    expect(ruleFromInput('between', '10', '20', RED)).toEqual({ rule: { operator: 'between', value: 10, to: 20, colour: RED } });
    expect(ruleFromInput('between', '10', '10', RED)).toMatchObject({ rule: { to: 10 } });
    expect(ruleFromInput('between', '10', '', RED)).toEqual({ problem: 'needNumber', field: 'to' });
    expect(ruleFromInput('between', 'x', '20', RED)).toEqual({ problem: 'needNumber', field: 'value' });
    expect(ruleFromInput('between', '20', '10', RED)).toEqual({ problem: 'rangeOrder', field: 'to' });
  });

  it('compares == and != with true, false, a number or the text as typed', () => {
    expect(ruleFromInput('==', 'true', '', RED)).toMatchObject({ rule: { value: true } });
    expect(ruleFromInput('!=', 'false', '', RED)).toMatchObject({ rule: { value: false } });
    expect(ruleFromInput('==', '42', '', RED)).toMatchObject({ rule: { value: 42 } });
    expect(ruleFromInput('==', ' broken ', '', RED)).toMatchObject({ rule: { value: 'broken' } });
    expect(ruleFromInput('==', ' ', '', RED)).toEqual({ problem: 'needValue', field: 'value' });
    expect(ruleFromInput('==', 'x'.repeat(MAX_RULE_TEXT + 1), '', RED)).toEqual({ problem: 'tooLong', field: 'value' });
  });
});

describe('isColourRule', () => {
  it('accepts what ruleFromInput makes', () => {
    for (const [operator, value, to] of [['>', '1', ''], ['between', '1', '2'], ['==', 'on', ''], ['!=', 'true', '']] as const) {
      const answer = ruleFromInput(operator, value, to, RED);
      expect('rule' in answer && isColourRule(answer.rule)).toBe(true);
    }
  });

  it('refuses what it would not make', () => {
    for (const stored of [null, 'rule', [], { operator: '>', value: '30', colour: RED }, { operator: '~', value: 1, colour: RED },
      { operator: '>', value: 1, colour: 'red' }, { operator: '>', value: 1, colour: '#cf1322;x' }, { operator: 'between', value: 5, colour: RED },
      { operator: 'between', value: 5, to: 1, colour: RED }, { operator: '>', value: 1, to: 2, colour: RED }, { operator: '==', value: { a: 1 }, colour: RED },
      { operator: '==', value: 'x'.repeat(MAX_RULE_TEXT + 1), colour: RED }]) {
      expect(isColourRule(stored), JSON.stringify(stored)?.slice(0, 60)).toBe(false);
    }
  });
});
