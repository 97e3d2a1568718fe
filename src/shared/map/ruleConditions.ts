// The condition of a colour-by rule (the dashboard's conditional colouring, with the operators of the
// watcher conditions, SPEC §3) and which rule a value meets first. The map draws its devices with
// the same conditions as a MapLibre expression (src/components/map/core/colourRules.ts
// ruleCondition); the server counts a cluster's devices per rule with ruleMet (GET /map-clusters).
// The two must agree: tests/unit/web/ruleConditions.test.ts evaluates both on the same values.

export const RULE_OPERATORS = ['>', '>=', '<', '<=', 'between', '==', '!='] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

/** Rules per attribute, at most. */
export const MAX_RULES = 8;
/** Characters of a text a rule compares with, at most. */
export const MAX_RULE_TEXT = 200;

export type RuleValue = number | boolean | string;

export interface RuleCondition {
  operator: RuleOperator;
  value: RuleValue;
  /** The upper bound of `between` (inclusive, like `value`). */
  to?: number;
}

/** Rules as GET /map-clusters takes them (`rules`, JSON): their shape; isRuleCondition checks the rest. */
export const ruleConditionsSchema = {
  type: 'array',
  minItems: 1,
  maxItems: MAX_RULES,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['operator', 'value'],
    properties: {
      operator: { type: 'string', enum: RULE_OPERATORS },
      value: { type: ['number', 'boolean', 'string'], maxLength: MAX_RULE_TEXT },
      to: { type: 'number' },
    },
  },
} as const;

export const needsNumber = (operator: RuleOperator) => operator !== '==' && operator !== '!=';

/** Whether a candidate is a whole condition: order comparisons on numbers, `between` with an upper bound not below its lower. */
export function isRuleCondition(candidate: unknown): candidate is RuleCondition {
  if (!candidate || typeof candidate !== 'object') return false;
  const { operator, value, to } = candidate as Record<string, unknown>;
  if (!RULE_OPERATORS.includes(operator as RuleOperator)) return false;
  const op = operator as RuleOperator;
  if (!needsNumber(op)) return ['number', 'boolean'].includes(typeof value) || (typeof value === 'string' && value.length <= MAX_RULE_TEXT);
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  return op === 'between' ? typeof to === 'number' && Number.isFinite(to) && to >= value : to === undefined;
}

/** Whether an attribute's value (null when the entity has none) meets the condition, as the map's expression decides it. */
export function meetsRule(rule: RuleCondition, value: unknown): boolean {
  switch (rule.operator) {
    case '==':
      return value === rule.value;
    case '!=': // an entity without the attribute has no value to differ
      return value !== null && value !== undefined && value !== rule.value;
    case 'between':
      return typeof value === 'number' && value >= (rule.value as number) && value <= rule.to!;
    case '>':
      return typeof value === 'number' && value > (rule.value as number);
    case '>=':
      return typeof value === 'number' && value >= (rule.value as number);
    case '<':
      return typeof value === 'number' && value < (rule.value as number);
    case '<=':
      return typeof value === 'number' && value <= (rule.value as number);
  }
}

/** The index of the first rule the value meets, or `rules.length` when it meets none. */
export function ruleMet(rules: readonly RuleCondition[], value: unknown): number {
  for (let index = 0; index < rules.length; index++) if (meetsRule(rules[index], value)) return index;
  return rules.length;
}
