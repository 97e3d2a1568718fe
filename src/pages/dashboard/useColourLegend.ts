// What the map's colours stand for: the chosen groups with their colours and the dimmed rest, or
// else the colour-by attribute's rules with the colour of other values. The legend shows it; a
// cluster's card counts its devices by the same entries, in the same order as the server counts them.
import { useTranslation } from 'react-i18next';
import { DIMMED } from '../../components/map/core/colourPalette.ts';
import { rulesInEffect, type MapColouring } from '../../components/map/core/entityStyle.ts';
import { useAttributeName } from '../../i18n/attributeNames.ts';
import type { TenantGroup } from './useMapColouring.ts';
import { useRuleText } from './useRuleText.ts';

export interface LegendEntry { colour: string; label: string }
export interface ColourLegend { title?: string; entries: LegendEntry[] }

export function useColourLegend(colouring: MapColouring, groups: readonly TenantGroup[], attribute: string | undefined): ColourLegend {
  const { t } = useTranslation();
  const attributeName = useAttributeName();
  const ruleText = useRuleText();
  const rules = attribute === undefined ? undefined : rulesInEffect(colouring);
  if (colouring.groups.length) {
    return {
      title: t('dashboardFilters.groups'),
      entries: [
        ...colouring.groups.map(({ id, colour }) => ({ colour, label: groups.find((group) => group.id === id)?.name ?? `#${id}` })),
        { colour: DIMMED, label: t('dashboardFilters.otherEntities') },
      ],
    };
  }
  if (!rules || attribute === undefined) return { entries: [] };
  return {
    title: attributeName(attribute),
    entries: [...rules.rules.map((rule) => ({ colour: rule.colour, label: ruleText(rule) })), { colour: rules.otherwise, label: t('dashboardFilters.rules.otherwise') }],
  };
}
