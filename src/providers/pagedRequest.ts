// Reads that come a page at a time (GET /map-features, GET /group-members): asks for the next page
// with `after=<next>` until `next` is null, and answers every page's items in one list.
import { httpRequest, type HttpRequest } from './httpClient.ts';

export interface Page { next: number | null }

export interface PagedRequestOptions {
  /** Called after each page with the number of items so far. */
  onPage?(loaded: number): void;
  /** Stops asking for more pages (what was read is still answered). */
  cancelled?(): boolean;
}

export async function requestAllPages<P extends Page, Item>(
  request: HttpRequest, itemsOf: (page: P) => readonly Item[], { onPage, cancelled }: PagedRequestOptions = {},
): Promise<Item[]> {
  const all: Item[] = [];
  let after: number | null = 0;
  while (after !== null && !cancelled?.()) {
    const page: P = await httpRequest<P>({ ...request, query: { ...request.query, after } });
    for (const item of itemsOf(page)) all.push(item); // one by one: spreading 20,000 arguments can overflow the stack
    onPage?.(all.length);
    after = page.next;
  }
  return all;
}
