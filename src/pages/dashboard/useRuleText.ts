// A colouring rule as text, e.g. "> 30", "== true", "between 10 and 20".
import { useTranslation } from 'react-i18next';
import type { ColourRule } from '../../components/map/core/colourRules.ts';
import type { RuleValue } from '../../shared/map/ruleConditions.ts';

export function useRuleText(): (rule: ColourRule) => string {
  const { t, i18n } = useTranslation();
  const shown = (value: RuleValue) => (typeof value === 'number' ? value.toLocaleString(i18n.language) : typeof value === 'string' ? `"${value}"` : String(value));
  return (rule) => (rule.operator === 'between'
    ? t('dashboardFilters.rules.between', { min: shown(rule.value), max: shown(rule.to!) })
    : `${rule.operator} ${shown(rule.value)}`);
}
