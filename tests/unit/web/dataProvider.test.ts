// The data provider maps refine calls to the REST paths of docs/api.md and GraphQL to /graphql.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setUpI18n } from '../../../src/i18n/i18n.ts';
import { blobAnswerMeta, dataProvider, filtersToQuery, graphqlMeta } from '../../../src/providers/dataProvider.ts';
import { resourceApi } from '../../../src/resources/apiMap.ts';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const userListQuery = 'query UserList { user_list { id username email } }';

beforeAll(async () => {
  await setUpI18n('city').changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('data provider', () => {
  it('turns declared filters into query parameters and ignores others', () => {
    const query = filtersToQuery(resourceApi.entities, [
      { field: 'ids', operator: 'in', value: [1, 2] },
      { field: 'level', operator: 'eq', value: 2 },
      { field: 'colour', operator: 'eq', value: 'red' },
      { field: 'search', operator: 'eq', value: '' },
    ]);
    expect(query).toEqual({ ids: '1,2', level: '2', search: undefined });
  });

  it('lists a resource as a plain array with its length as total', async () => {
    const fetchStub = vi.fn(async (_url: string) => json(200, [{ id: 1 }, { id: 2 }]));
    vi.stubGlobal('fetch', fetchStub);
    const answer = await dataProvider.getList({ resource: 'entities', filters: [{ field: 'type', operator: 'eq', value: 4 }] });
    expect(answer).toEqual({ data: [{ id: 1 }, { id: 2 }], total: 2 });
    expect(fetchStub.mock.calls[0]?.[0]).toBe('/entity-list?type=4');
  });

  it('asks a list that pages for one page and reads the total from X-Total-Count; other lists stay whole', async () => {
    const fetchStub = vi.fn(async (_url: string) => new Response(JSON.stringify([{ id: 3 }]), { status: 200, headers: { 'x-total-count': '120' } }));
    vi.stubGlobal('fetch', fetchStub);
    const answer = await dataProvider.getList({ resource: 'entities', filters: [{ field: 'types', operator: 'in', value: [4, 5] }], pagination: { mode: 'server', currentPage: 3, pageSize: 50 } });
    expect(answer).toEqual({ data: [{ id: 3 }], total: 120 });
    expect(fetchStub.mock.calls[0]?.[0]).toBe('/entity-list?types=4%2C5&per_page=50&page=3');
    await dataProvider.getList({ resource: 'entities', pagination: { mode: 'off' } });
    expect(fetchStub.mock.calls[1]?.[0]).toBe('/entity-list');
    expect((await dataProvider.getList({ resource: 'groups', pagination: { mode: 'server', currentPage: 2, pageSize: 5 } })).total).toBe(1);
    expect(fetchStub.mock.calls[2]?.[0]).toBe('/group-list');
  });

  it('reads several records by their ids: from the list with its ids filter, or picked from a whole list', async () => {
    const fetchStub = vi.fn(async (_url: string) => json(200, [{ id: 1 }, { id: 2 }, { id: 3 }]));
    vi.stubGlobal('fetch', fetchStub);
    await expect(dataProvider.getMany!({ resource: 'entity_types', ids: [3, 1] })).resolves.toEqual({ data: [{ id: 1 }, { id: 3 }] });
    expect(fetchStub.mock.calls[0]?.[0]).toBe('/entity-type-list');
    await expect(dataProvider.getMany!({ resource: 'groups', ids: ['2'] })).resolves.toEqual({ data: [{ id: 2 }] });
    expect(fetchStub.mock.calls[1]?.[0]).toBe('/group-list');
    await dataProvider.getMany!({ resource: 'entities', ids: [1, 2] });
    expect(fetchStub.mock.calls[2]?.[0]).toBe('/entity-list?ids=1%2C2');
  });

  it('reads one entity by id', async () => {
    const fetchStub = vi.fn(async (_url: string) => json(200, { id: 7 }));
    vi.stubGlobal('fetch', fetchStub);
    await expect(dataProvider.getOne({ resource: 'entities', id: 7 })).resolves.toEqual({ data: { id: 7 } });
    expect(fetchStub.mock.calls[0]?.[0]).toBe('/entity/7');
  });

  it('sends GraphQL queries of custom calls to /graphql', async () => {
    const fetchStub = vi.fn(async () => json(200, { data: { user_list: [{ id: 'u1' }] } }));
    vi.stubGlobal('fetch', fetchStub);
    const answer = await dataProvider.custom!({ url: '', method: 'post', meta: graphqlMeta(userListQuery) });
    expect(answer.data).toEqual({ user_list: [{ id: 'u1' }] });
    const [url, init] = fetchStub.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/graphql');
    expect(JSON.parse(String(init.body)).query).toBe(userListQuery);
  });

  it('reports GraphQL errors with their message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { errors: [{ message: 'Entity not found' }] })));
    await expect(dataProvider.custom!({ url: '', method: 'post', meta: graphqlMeta(userListQuery) })).rejects.toMatchObject({
      message: 'Entity not found',
    });
  });

  it('sends a file of a custom call as it is, and answers an image as a Blob when asked to', async () => {
    const sent: [string, RequestInit][] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit) => {
      sent.push([url, init]);
      return init.method === 'PUT' ? json(200, { url: '/entity/1/overlay-image?v=2' }) : new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'content-type': 'image/png' } });
    }));
    const file = new Blob([new Uint8Array([0x89, 0x50])], { type: 'image/png' });
    const stored = await dataProvider.custom!({ url: '/entity/1/overlay-image', method: 'put', payload: file });
    expect(stored.data).toEqual({ url: '/entity/1/overlay-image?v=2' });
    expect(sent[0][1].body).toBe(file);
    expect((sent[0][1].headers as Record<string, string>)['content-type']).toBe('image/png');

    const image = await dataProvider.custom!({ url: '/entity/1/overlay-image?v=2', method: 'get', meta: blobAnswerMeta });
    expect(sent[1][0]).toBe('/entity/1/overlay-image?v=2');
    expect(image.data).toBeInstanceOf(Blob);
    expect([...new Uint8Array(await (image.data as unknown as Blob).arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it('refuses resources it has no API for', async () => {
    await expect(dataProvider.getList({ resource: 'unknown' })).rejects.toThrow(/No API is declared/);
  });
});

describe('model resources', () => {
  it('page a REST list on the server and read the total from X-Total-Count', async () => {
    const fetchStub = vi.fn(async (_url: string) => new Response(JSON.stringify([{ id: 3 }]), { status: 200, headers: { 'content-type': 'application/json', 'x-total-count': '41' } }));
    vi.stubGlobal('fetch', fetchStub);
    const answer = await dataProvider.getList({
      resource: 'watcher', pagination: { currentPage: 3, pageSize: 20 }, sorters: [{ field: 'name', order: 'desc' }],
      filters: [{ field: 'status', operator: 'in', value: ['active', 'inactive'] }, { field: 'search', operator: 'contains', value: 'hot' }],
    });
    expect(answer).toEqual({ data: [{ id: 3 }], total: 41 });
    expect(fetchStub.mock.calls[0]?.[0]).toBe('/watcher-list?page=3&per_page=20&sort=name&order=desc&status=active%2Cinactive&search=hot');
  });

  it('prefix a failed KPI list with GetKpiList (SPEC §8)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(403, { errors: [{ code: 'FORBIDDEN', message: 'You do not have permission to do this.' }] })));
    await expect(dataProvider.getList({ resource: 'kpi' })).rejects.toThrow(/^GetKpiList: /);
  });

  it('send creates and updates through the declared doors, with field errors named as the form names them', async () => {
    const fetchStub = vi.fn(async (_url: string, _init?: RequestInit) => json(400, { errors: [{ code: 'NUMBER_MAX', message: 'The interval field must be 86400 or less', field: 'input.interval', params: { comparison: '<=', limit: 86400 } }] }));
    vi.stubGlobal('fetch', fetchStub);
    const failure = await dataProvider.update({ resource: 'watcher', id: 7, variables: { interval: 90000 } }).catch((error: unknown) => error);
    expect(fetchStub.mock.calls[0]?.[0]).toBe('/update-watcher');
    expect(JSON.parse(String(fetchStub.mock.calls[0]?.[1]?.body))).toEqual({ input: { interval: 90000, id: 7 } });
    expect((failure as { errors: Record<string, string> }).errors).toEqual({ interval: 'The interval field must be 86400 or less' });
  });
});
