// A colouring rule as text, e.g. "> 30", "== true", "between 10 and 20", and the legend of a set of
// rules: each rule's colour and text, then the colour of other values.
import { useTranslation } from 'react-i18next';
import type { ColourRule, ColourRuleSet } from '../../components/map/core/colourRules.ts';
import type { RuleValue } from '../../shared/map/ruleConditions.ts';

export function useRuleText(): (rule: ColourRule) => string {
  const { t, i18n } = useTranslation();
  const shown = (value: RuleValue) => (typeof value === 'number' ? value.toLocaleString(i18n.language) : typeof value === 'string' ? `"${value}"` : String(value));
  return (rule) => (rule.operator === 'between'
    ? t('dashboardFilters.rules.between', { min: shown(rule.value), max: shown(rule.to!) })
    : `${rule.operator} ${shown(rule.value)}`);
}

export interface LegendEntry { colour: string; label: string }

/** The rules' colours and texts, then the colour of values no rule matches (none without rules). */
export function useRuleLegend(rules: ColourRuleSet | undefined): LegendEntry[] {
  const { t } = useTranslation();
  const ruleText = useRuleText();
  if (!rules?.rules.length) return [];
  return [...rules.rules.map((rule) => ({ colour: rule.colour, label: ruleText(rule) })), { colour: rules.otherwise, label: t('dashboardFilters.rules.otherwise') }];
}
