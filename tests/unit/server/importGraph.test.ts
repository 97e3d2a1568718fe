// The server's layers point down only (scripts/importGraph.ts): the doors over what runs over the
// services over the resource engine over the data layer; the server imports of the web app only
// what both sides run; no circle of imports; SQL only in server/db/.
import { expect, it } from 'vitest';
import { importProblems } from '../../../scripts/importGraph.ts';

it('no server import breaks the layers, reaches a browser module or closes a circle; no SQL outside server/db/', () => {
  expect(importProblems()).toEqual([]);
});
