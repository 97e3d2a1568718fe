// One level of the tree view: an entity with its first children (one page of the entities list in
// tree order: the entity, then its children), and how many more there are; a node's level is
// cached per entity so that opening it again costs nothing. A region with 100,000 devices is not
// sent whole.
import { useDataProvider, useList, type DataProvider, type GetListParams } from '@refinedev/core';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { LocalizedValue } from '../../shared/i18n/pickLocalized.ts';
import type { EntityJson } from '../../schemas/entityJson.ts';

export interface TreeEntity { id: string; name: LocalizedValue; entity_type_id: string; children?: TreeEntity[]; moreChildren?: number }

/** Children shown under one node, at most; the rest are counted (the search finds them). */
export const TREE_CHILDREN_SHOWN = 200;
const LEVEL_FRESH_MS = 30_000;

/** The entities list's page of one level: the entity and its first children. */
const levelParams = (id: number) => ({
  resource: 'entities',
  filters: [{ field: 'ids', operator: 'eq', value: id }, { field: 'depth', operator: 'eq', value: 1 }],
  pagination: { mode: 'server', currentPage: 1, pageSize: TREE_CHILDREN_SHOWN + 1 },
} satisfies GetListParams);

const treeEntityOf = (entity: EntityJson): TreeEntity => ({ id: String(entity.id), name: entity.name as LocalizedValue, entity_type_id: String(entity.entity_type_id) });

/** The level read from that page; null when the tenant has no entity `id`. */
function treeLevelOf(id: number, rows: EntityJson[], total: number | undefined): TreeEntity | null {
  const [entity, ...children] = rows;
  if (!entity || entity.id !== id) return null;
  return { ...treeEntityOf(entity), children: children.map(treeEntityOf), moreChildren: Math.max(0, (total ?? rows.length) - rows.length) };
}

/** The tree's root level (undefined while it loads), with its refine list call. */
export function useTreeLevel(id: number | undefined) {
  const call = useList<EntityJson>({
    ...levelParams(id ?? 0),
    errorNotification: false,
    queryOptions: { enabled: id !== undefined, staleTime: LEVEL_FRESH_MS },
  });
  const { data, total } = call.result;
  return { level: call.query.isSuccess ? treeLevelOf(id ?? 0, data, total) : undefined, query: call.query };
}

/** A node's level, read through the data provider, or from the cache when read lately. */
export const fetchTreeLevel = (client: QueryClient, provider: DataProvider, id: number) => client.fetchQuery({
  queryKey: ['entity-tree-level', id],
  queryFn: async () => {
    const { data, total } = await provider.getList<EntityJson>(levelParams(id));
    return treeLevelOf(id, data, total);
  },
  staleTime: LEVEL_FRESH_MS,
  retry: false,
});

/** Loads a node's level when it is opened (antd Tree's `loadData` wants a promise). */
export function useTreeLevelLoader(): (id: number) => Promise<TreeEntity | null> {
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider();
  return useCallback((id) => fetchTreeLevel(queryClient, dataProvider(), id), [queryClient, dataProvider]);
}
