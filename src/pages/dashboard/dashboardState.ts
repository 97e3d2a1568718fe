// The dashboard's state kept across reloads (SPEC §3 "Dashboard state"): the map level, the
// chosen groups, the colour-by attribute and its colouring rules, and whether the filters are
// open, in local storage per tenant and user. The region has its own cookie (regionCookie.ts),
// the selected entity is the address.
// What is read back is checked part by part: a part that is not valid is dropped, never trusted.
import { isHexColour } from '../../components/map/core/colourPalette.ts';
import { isColourRule, type ColourRuleSet } from '../../components/map/core/colourRules.ts';
import { MAX_RULES } from '../../shared/map/ruleConditions.ts';
import { MAX_GROUPS } from '../../components/map/core/groupColours.ts';
import { INT4_MAX } from '../../schemas/bounds.ts';
import { mapFeaturesQuerySchema } from '../../schemas/mapFeatures.ts';
import { DASHBOARD_STATE_PREFIX } from '../../session/storedKeys.ts';

export interface DashboardState {
  /** The map level shown; every level without one. */
  level?: number;
  /** The chosen groups' ids, in the order chosen. */
  groups: number[];
  /** The attribute the map colours by. */
  attribute?: string;
  /** Colouring rules per colour-by attribute. */
  rules: Record<string, ColourRuleSet>;
  /** The map filters are shown (they start folded away, leaving the map whole). */
  filtersOpen?: boolean;
}

export const EMPTY_DASHBOARD_STATE: DashboardState = { groups: [], rules: {} };

/** Attributes with colouring rules kept, at most. */
export const MAX_RULED_ATTRIBUTES = 20;

const { level: LEVEL, attribute: ATTRIBUTE } = mapFeaturesQuerySchema.properties;

export const dashboardStateKey = (tenantId: string, userId: string) => `${DASHBOARD_STATE_PREFIX}${tenantId}.${userId}`;

const isLevel = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= LEVEL.minimum && (value as number) <= LEVEL.maximum;
const isAttribute = (value: unknown): value is string =>
  typeof value === 'string' && value.length >= ATTRIBUTE.minLength && value.length <= ATTRIBUTE.maxLength && !value.includes('\u0000');
const isId = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= INT4_MAX;

function ruleSetOf(value: unknown): ColourRuleSet | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { rules, otherwise } = value as Record<string, unknown>;
  if (!Array.isArray(rules) || rules.length > MAX_RULES || !rules.every(isColourRule) || !isHexColour(otherwise)) return undefined;
  return { rules, otherwise };
}

/** A state from anything (what storage held): its valid parts, defaults for the rest. */
export function dashboardStateOf(value: unknown): DashboardState {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return EMPTY_DASHBOARD_STATE;
  const { level, groups, attribute, rules, filtersOpen } = value as Record<string, unknown>;
  const ruleSets = rules && typeof rules === 'object' && !Array.isArray(rules)
    ? Object.entries(rules).slice(0, MAX_RULED_ATTRIBUTES).flatMap(([key, set]) => {
      const valid = isAttribute(key) ? ruleSetOf(set) : undefined;
      return valid ? [[key, valid] as const] : [];
    })
    : [];
  return {
    ...(isLevel(level) ? { level } : {}),
    groups: Array.isArray(groups) ? [...new Set(groups.filter(isId))].slice(0, MAX_GROUPS) : [],
    ...(isAttribute(attribute) ? { attribute } : {}),
    rules: Object.fromEntries(ruleSets),
    ...(typeof filtersOpen === 'boolean' ? { filtersOpen } : {}),
  };
}

export function readDashboardState(key: string): DashboardState {
  try {
    const text = window.localStorage.getItem(key);
    return text === null ? EMPTY_DASHBOARD_STATE : dashboardStateOf(JSON.parse(text));
  } catch {
    return EMPTY_DASHBOARD_STATE; // not JSON, or storage refused
  }
}

export function writeDashboardState(key: string, state: DashboardState): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(state));
  } catch {
    // storage full or refused: the state lasts until the page is left
  }
}
