// Conditional colouring: rules on the colour-by attribute's value with the operators of the
// watcher conditions (SPEC §3, src/shared/map/ruleConditions.ts), the first matching rule giving
// the colour; one MapLibre `case` expression draws them all.
import type { ExpressionSpecification } from 'maplibre-gl';
import { isRuleCondition, MAX_RULE_TEXT, needsNumber, type RuleCondition, type RuleOperator, type RuleValue } from '../../../shared/map/ruleConditions.ts';
import { isHexColour } from './colourPalette.ts';

export interface ColourRule extends RuleCondition {
  colour: string;
}

export interface ColourRuleSet {
  rules: ColourRule[];
  /** The colour of a value no rule matches. */
  otherwise: string;
}

/** Why typed input is not a rule: the key of its message under `dashboardFilters.rules`. */
export type RuleInputProblem = 'needNumber' | 'needValue' | 'rangeOrder' | 'tooLong';

const numberOf = (text: string): number | undefined => {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return trimmed !== '' && Number.isFinite(value) ? value : undefined;
};

/** `true`, `false` and numbers are compared as such; anything else as text. */
const valueOf = (text: string): RuleValue => {
  const trimmed = text.trim();
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  return numberOf(trimmed) ?? trimmed;
};

/** What a user typed as a rule, or what is wrong with it (and in which field: `value` or `to`). */
export function ruleFromInput(operator: RuleOperator, text: string, toText: string, colour: string):
  { rule: ColourRule } | { problem: RuleInputProblem; field: 'value' | 'to' } {
  if (!needsNumber(operator)) {
    if (text.trim() === '') return { problem: 'needValue', field: 'value' };
    if (text.trim().length > MAX_RULE_TEXT) return { problem: 'tooLong', field: 'value' };
    return { rule: { operator, value: valueOf(text), colour } };
  }
  const value = numberOf(text);
  if (value === undefined) return { problem: 'needNumber', field: 'value' };
  if (operator !== 'between') return { rule: { operator, value, colour } };
  const to = numberOf(toText);
  if (to === undefined) return { problem: 'needNumber', field: 'to' };
  if (to < value) return { problem: 'rangeOrder', field: 'to' };
  return { rule: { operator, value, to, colour } };
}

/** A rule read back from storage: checked like typed input. */
export function isColourRule(candidate: unknown): candidate is ColourRule {
  return isRuleCondition(candidate) && isHexColour((candidate as { colour?: unknown }).colour);
}

const VALUE: ExpressionSpecification = ['get', 'value'];
const IS_NUMBER: ExpressionSpecification = ['==', ['typeof', VALUE], 'number'];

/** The condition of one rule (ruleConditions.ts meetsRule decides the same). Order comparisons check the type first: MapLibre fails them on mixed types. */
export function ruleCondition(rule: RuleCondition): ExpressionSpecification {
  switch (rule.operator) {
    case '==':
      return ['==', VALUE, rule.value];
    case '!=': // an entity without the attribute has no value to differ
      return ['all', ['!=', VALUE, null], ['!=', VALUE, rule.value]];
    case 'between':
      return ['all', IS_NUMBER, ['>=', ['number', VALUE], rule.value as number], ['<=', ['number', VALUE], rule.to!]];
    default:
      return ['all', IS_NUMBER, [rule.operator, ['number', VALUE], rule.value as number]];
  }
}

/** The first matching rule's colour, else `otherwise` (a colour or an expression). */
export function ruleColourExpression(rules: readonly ColourRule[], otherwise: ExpressionSpecification | string): ExpressionSpecification {
  if (rules.length === 0) return typeof otherwise === 'string' ? ['to-color', otherwise] : otherwise;
  return ['case', ...rules.flatMap((rule) => [ruleCondition(rule), rule.colour]), otherwise] as ExpressionSpecification;
}
