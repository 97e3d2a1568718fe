// One level of the tree view: one page of the entity and its children (through the data
// provider's entities list), the rest counted.
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchTreeLevel, TREE_CHILDREN_SHOWN } from '../../../src/pages/dashboard/entityTreeLevel.ts';
import { dataProvider } from '../../../src/providers/dataProvider.ts';

afterEach(() => vi.unstubAllGlobals());

const entity = (id: number) => ({ id, name: { en: `E${id}` }, entity_type_id: 3 });

describe('a tree level', () => {
  it('asks for the entity and its first children, and counts the others', async () => {
    const fetchStub = vi.fn(async (_url: string) => new Response(JSON.stringify(Array.from({ length: TREE_CHILDREN_SHOWN + 1 }, (_, i) => entity(i + 7))),
      { status: 200, headers: { 'x-total-count': '500' } }));
    vi.stubGlobal('fetch', fetchStub);
    const level = await fetchTreeLevel(new QueryClient(), dataProvider, 7);
    expect(fetchStub.mock.calls[0][0]).toBe(`/entity-list?ids=7&depth=1&per_page=${TREE_CHILDREN_SHOWN + 1}&page=1`);
    expect(level).toMatchObject({ id: '7', name: { en: 'E7' }, entity_type_id: '3', moreChildren: 500 - TREE_CHILDREN_SHOWN - 1 });
    expect(level!.children).toHaveLength(TREE_CHILDREN_SHOWN);
    expect(level!.children![0]).toEqual({ id: '8', name: { en: 'E8' }, entity_type_id: '3' });
  });

  it('is nothing for an id the tenant does not have', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('[]', { status: 200, headers: { 'x-total-count': '0' } })));
    expect(await fetchTreeLevel(new QueryClient(), dataProvider, 99)).toBeNull();
  });
});
