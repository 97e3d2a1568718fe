// Which REST call serves which refine resource (docs/api.md). The data provider reads only
// this map: adding a resource means adding an entry here.
export interface ResourceApi {
  /** GET path answering a plain JSON array. */
  list?: string;
  /** GET path of one record. */
  one?: (id: string | number) => string;
  /** refine filter field → query parameter of the list call. */
  filters?: Record<string, string>;
  /** The list pages on request: the query parameter of the page size (with `page`, X-Total-Count). */
  pageSize?: string;
}

export const resourceApi: Record<string, ResourceApi> = {
  entities: {
    list: '/entity-list',
    one: (id) => `/entity/${encodeURIComponent(String(id))}`,
    filters: { ids: 'ids', level: 'level', depth: 'depth', type: 'type', group: 'group', search: 'search', gateway: 'gateway', region: 'region', types: 'types' },
    pageSize: 'per_page',
  },
  entity_types: { list: '/entity-type-list', filters: { module: 'module' } },
  groups: { list: '/group-list' },
  group_tree: { list: '/group-tree' },
};

/** Calls that are not lists of a resource. */
export const apiPaths = {
  login: '/auth/login',
  logout: '/auth/logout',
  tenant: '/tenant',
  currentUser: '/user-me',
  updatePassword: '/update-password',
  mapFeatures: '/map-features',
  mapClusters: '/map-clusters',
  mapConfig: '/map-config',
  groupMembers: '/group-members',
  telemetryKeys: '/telemetry-keys',
  kpiData: '/kpi-data',
  kpiPreview: '/kpi-preview',
  testQueryScheduler: '/test-query-scheduler',
} as const;
