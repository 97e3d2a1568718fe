// One level of the tree view: an entity with its children (GraphQL entity_tree, depth 1), cached
// per entity so that opening a node again costs nothing.
import type { QueryClient } from '@tanstack/react-query';
import type { LocalizedValue } from '../../i18n/pickLocalized.ts';
import { graphqlRequest } from '../../providers/httpClient.ts';
import { entityTreeLevelQuery } from '../../resources/graphqlQueries.ts';

/** As entity_tree answers it (GraphQL ids are strings). */
export interface TreeEntity { id: string; name: LocalizedValue; entity_type_id: string; children?: TreeEntity[] }

const LEVEL_FRESH_MS = 30_000;

export const treeLevelQuery = (id: number) => ({
  queryKey: ['entity-tree-level', id],
  queryFn: async (): Promise<TreeEntity | null> => (await graphqlRequest<{ entity_tree: TreeEntity[] }>(entityTreeLevelQuery, { id })).entity_tree[0] ?? null,
  staleTime: LEVEL_FRESH_MS,
  retry: false,
});

export const fetchTreeLevel = (client: QueryClient, id: number) => client.fetchQuery(treeLevelQuery(id));
