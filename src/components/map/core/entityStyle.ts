// How the entity layers filter and colour what they draw: the map level, then the colour — the
// chosen groups' colours when groups are chosen, else the colouring rules, else the entity's own
// colour or the colour of its value. All of it is expressions: changing them re-draws the data
// the map holds, never loads it again.
import type { ExpressionSpecification, FilterSpecification } from 'maplibre-gl';
import { ruleColourExpression, type ColourRuleSet } from './colourRules.ts';
import { groupColourExpression, type GroupColour } from './groupColours.ts';

export interface MapColouring {
  /** The chosen groups with their colours, in the order chosen. */
  groups: readonly GroupColour[];
  rules?: ColourRuleSet;
}

/** A colour from the colour value: green for true or a positive number, grey for none, blue otherwise. */
const VALUE_COLOUR: ExpressionSpecification = [
  'case',
  ['==', ['get', 'value'], null], '#5b6b7f',
  ['==', ['get', 'value'], true], '#2e9d57',
  ['==', ['get', 'value'], false], '#b04a3a',
  ['all', ['==', ['typeof', ['get', 'value']], 'number'], ['>', ['to-number', ['get', 'value']], 0]], '#2e9d57',
  '#1f6fb2',
];

/** The entity's own colour (a region's or zone's) when it has one, else `otherwise`. */
const ownColourOr = (otherwise: ExpressionSpecification | string): ExpressionSpecification =>
  ['case', ['has', 'colour'], ['to-color', ['get', 'colour']], otherwise];

/** The colour rules the map draws by: none while groups are chosen (their colours win) or without rules. */
export const rulesInEffect = ({ groups, rules }: MapColouring): ColourRuleSet | undefined => (!groups.length && rules?.rules.length ? rules : undefined);

export function entityColour(colouring: MapColouring): ExpressionSpecification {
  if (colouring.groups.length) return groupColourExpression(colouring.groups);
  const rules = rulesInEffect(colouring);
  if (!rules) return ownColourOr(VALUE_COLOUR);
  // a matching rule wins over the entity's own colour: it is what the user asked to see
  return ruleColourExpression(rules.rules, ownColourOr(rules.otherwise));
}

const AT_LEVEL = (level: number): ExpressionSpecification => ['==', ['get', 'level'], level];

/** The entities of one map level, or all of them. */
export const levelFilter = (level: number | undefined, ...more: ExpressionSpecification[]): FilterSpecification =>
  ['all', ...more, ...(level === undefined ? [] : [AT_LEVEL(level)])];

/** Levels whose entities a cluster counts apart (see clusterLevelProperties), at most. */
export const MAX_COUNTED_LEVELS = 32;

export const clusterLevelKey = (level: number) => `at_level_${level}`;
const countAt = (level: number): ExpressionSpecification => ['number', ['get', clusterLevelKey(level)], 0];

/**
 * A cluster's count of points at each of `levels`, so that with a level chosen a cluster is drawn
 * for its points at that level alone. None for one level (choosing it hides nothing) or too many.
 */
export function clusterLevelProperties(levels: readonly number[]): Record<string, ExpressionSpecification> | undefined {
  if (levels.length < 2 || levels.length > MAX_COUNTED_LEVELS) return undefined;
  return Object.fromEntries(levels.map((level) => [clusterLevelKey(level), ['+', ['case', AT_LEVEL(level), 1, 0]]]));
}

/** The clusters holding points of the chosen level (all of them without one, or without counts). */
export function clusterFilter(level: number | undefined, counted: boolean): FilterSpecification {
  const atLevel: ExpressionSpecification[] = level !== undefined && counted ? [['>', countAt(level), 0]] : [];
  return ['all', ['has', 'point_count'], ...atLevel];
}

/** How many points a cluster stands for: at the chosen level when it counts them apart. */
export const clusterSize = (level: number | undefined, counted: boolean): ExpressionSpecification =>
  level !== undefined && counted ? countAt(level) : ['get', 'point_count'];
