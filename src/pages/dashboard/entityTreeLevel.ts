// One level of the tree view: an entity with its first children (one page of GET /entity-list in
// tree order: the entity, then its children), and how many more there are; cached per entity so
// that opening a node again costs nothing. A region with 100,000 devices is not sent whole.
import type { QueryClient } from '@tanstack/react-query';
import type { LocalizedValue } from '../../i18n/pickLocalized.ts';
import { httpExchange } from '../../providers/httpClient.ts';
import { resourceApi } from '../../resources/apiMap.ts';
import type { EntityJson } from '../../schemas/entityJson.ts';

export interface TreeEntity { id: string; name: LocalizedValue; entity_type_id: string; children?: TreeEntity[]; moreChildren?: number }

/** Children shown under one node, at most; the rest are counted (the search finds them). */
export const TREE_CHILDREN_SHOWN = 200;
const LEVEL_FRESH_MS = 30_000;

const treeEntityOf = (entity: EntityJson): TreeEntity => ({ id: String(entity.id), name: entity.name as LocalizedValue, entity_type_id: String(entity.entity_type_id) });

async function treeLevel(id: number): Promise<TreeEntity | null> {
  const { body, headers } = await httpExchange<EntityJson[]>({
    path: resourceApi.entities.list!,
    query: { ids: id, depth: 1, per_page: TREE_CHILDREN_SHOWN + 1, page: 1 },
  });
  const [entity, ...children] = body;
  if (!entity || entity.id !== id) return null;
  const total = Number(headers.get('x-total-count') ?? body.length);
  return { ...treeEntityOf(entity), children: children.map(treeEntityOf), moreChildren: Math.max(0, total - body.length) };
}

export const treeLevelQuery = (id: number) => ({
  queryKey: ['entity-tree-level', id],
  queryFn: () => treeLevel(id),
  staleTime: LEVEL_FRESH_MS,
  retry: false,
});

export const fetchTreeLevel = (client: QueryClient, id: number) => client.fetchQuery(treeLevelQuery(id));
