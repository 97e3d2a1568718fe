// The layers point down only (scripts/importGraph.ts): on the server the doors over what runs over
// the services over the resource engine over the data layer, the server importing of the web app
// only what both sides run, SQL only in server/db/; in the web app only pages and the page table
// import pages; no circle of imports anywhere.
import { expect, it } from 'vitest';
import { importProblems } from '../../scripts/importGraph.ts';

it('no import breaks the layers, reaches a browser module from the server or closes a circle; no SQL outside server/db/', () => {
  expect(importProblems()).toEqual([]);
});
