// Group colouring: the chosen groups' members in their group's colour, everything else dimmed.
// Membership is a feature state (`group`: the group's id) set once per member, so choosing
// groups never re-uploads the map's data; one `match` expression turns it into a colour.
import type { ExpressionSpecification } from 'maplibre-gl';
import { DIMMED, isHexColour, PALETTE } from './colourPalette.ts';

export interface GroupColour { id: number; colour: string }

/** Groups, at most, chosen at once (each needs a colour one can tell apart). */
export const MAX_GROUPS = PALETTE.length;

/** The feature state holding the id of the chosen group an entity is drawn for. */
export const GROUP_STATE = 'group';

const MEMBER_OF: ExpressionSpecification = ['number', ['feature-state', GROUP_STATE], 0];
export const IS_GROUP_MEMBER: ExpressionSpecification = ['!=', MEMBER_OF, 0];

/**
 * The colours of the chosen groups, in the order chosen: a group's own `attributes.color`
 * (#rrggbb), else the palette's colour at the group's place in the tenant's list (it keeps its
 * colour whatever else is chosen).
 */
export function groupColours(chosen: readonly number[], groups: readonly { id: number; attributes?: unknown }[]): GroupColour[] {
  return chosen.flatMap((id) => {
    const place = groups.findIndex((group) => group.id === id);
    if (place < 0) return [];
    const own = (groups[place].attributes as { color?: unknown } | null | undefined)?.color;
    return [{ id, colour: isHexColour(own) ? own : PALETTE[place % PALETTE.length].hex }];
  });
}

/** Each member's group: the first chosen group it is in (the legend lists them in that order). */
export function memberGroups(chosen: readonly GroupColour[], members: ReadonlyMap<number, readonly number[]>): Map<number, number> {
  const groupOf = new Map<number, number>();
  for (const { id } of chosen) {
    for (const entity of members.get(id) ?? []) if (!groupOf.has(entity)) groupOf.set(entity, id);
  }
  return groupOf;
}

/** A member's group colour, else the dimmed grey. Only for at least one group. */
export function groupColourExpression(chosen: readonly GroupColour[]): ExpressionSpecification {
  return ['match', MEMBER_OF, ...chosen.flatMap(({ id, colour }) => [id, colour]), DIMMED] as ExpressionSpecification;
}
