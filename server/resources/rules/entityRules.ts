// Entity rules: the geometry is sound (src/schemas/geometry.ts), tree_path follows the parent (and moves the subtree with it), and an entity with
// children or used by a watcher or scheduler is not deleted (SPEC §8). A device's access token is unique across every tenant.
// An entity that is not there, or not the caller's, is 'Entity not found' (SPEC §8), in every door that reads one.
import { entityUsage, moveInTree, treePathOf, type EntityUsage } from '../../db/entityQueries.ts';
import { logUserChange } from '../../db/logQueries.ts';
import { ApiError, badRequest } from '../../errors.ts';
import { geometryProblem, type Geometry } from '../../../src/schemas/geometry.ts';
import { overlayProblem, type Overlay } from '../../../src/schemas/overlay.ts';
import type { ModelRules } from './types.ts';

export const ENTITY_NOT_FOUND = 'Entity not found';
export const ENTITY_DELETE_BLOCKED = 'Could not be deleted - it has children or is used in schedulers or watchers';

/**
 * A device's access token that another device already has, in this tenant or any other: one
 * answer for both, so it tells nothing about other tenants (docs/decisions.md "Device access tokens").
 */
export const accessTokenTaken = () =>
  new ApiError(409, 'ACCESS_TOKEN_TAKEN', 'This access token is already in use. Choose another one.', 'access_token');

export const entityRules: ModelRules = {
  notFound: ENTITY_NOT_FOUND,

  async beforeWrite(_context, record) {
    const problem = geometryProblem(record.geom as Geometry | null | undefined);
    if (problem) throw badRequest('GEOMETRY_INVALID', `geom: ${problem}`, 'geom');
    const overlay = overlayProblem((record.attributes as { overlay?: Overlay } | undefined)?.overlay);
    if (overlay) throw badRequest('VALIDATION', `attributes.overlay.${overlay}`, 'attributes.overlay');
  },

  async afterWrite({ tx, caller }, id, record, previous) {
    await logUserChange(tx, caller, id, previous ? 'Entity updated' : 'Entity created', {
      changed: previous ? Object.keys(record).filter((field) => JSON.stringify(record[field]) !== JSON.stringify(previous[field])) : Object.keys(record),
    });
    const parentId = (record.parent_id ?? null) as number | null;
    if (previous && previous.parent_id === parentId) return;
    let parentPath = '';
    if (parentId !== null) {
      parentPath = (await treePathOf(tx, parentId))!;
      if (`.${parentPath}.`.includes(`.${id}.`)) throw badRequest('VALIDATION', 'parent_id must not be the entity itself or one of its descendants', 'parent_id');
    }
    const treePath = parentPath ? `${parentPath}.${id}` : String(id);
    const oldPath = typeof previous?.tree_path === 'string' ? previous.tree_path : undefined;
    await moveInTree(tx, id, treePath, oldPath);
  },

  async beforeDelete({ tx, caller }, id, record) {
    const usage = await entityUsage(tx, id);
    if (usage.childrenIds.length || usage.watcherNames.length || usage.schedulerNames.length) {
      throw entityInUse(usage);
    }
    await logUserChange(tx, caller, id, 'Entity deleted', { name: record.name, entity_type_id: record.entity_type_id });
  },
};

export function entityInUse(usage: EntityUsage): ApiError {
  const error = new ApiError(409, 'ENTITY_IN_USE', ENTITY_DELETE_BLOCKED, undefined, {
    childrenIds: usage.childrenIds.join(', '), watcherNames: usage.watcherNames.join(', '), schedulerNames: usage.schedulerNames.join(', '),
  });
  return Object.assign(error, { usage });
}
