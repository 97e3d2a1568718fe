// The server's clusters as map features: coloured by the class (a rule, a group) most of their
// devices are in (the first of equals) when the answer counts by classes, and their counts by class
// read back on hover.
import { describe, expect, it } from 'vitest';
import { clusterCollectionOf, classCountsOf } from '../../../src/components/map/core/clusterFeatures.ts';
import type { MapClusterRow } from '../../../src/schemas/mapClusters.ts';

const CELL = [17, 48, 17.1, 48.1] as const;
const row = (count: number, rules?: number[]): MapClusterRow => [17.05, 48.05, count, 1, 0, 0, ...CELL, ...(rules ? [rules] : [])] as MapClusterRow;
const COLOURS = ['#cf1322', '#2e9d57', '#8c8c8c'];

describe('clusterCollectionOf', () => {
  it('gives a cluster counted by classes the colour of the most of its devices, the first of equals, and its counts', () => {
    const [most, tie, other] = clusterCollectionOf([row(10, [2, 7, 1]), row(6, [3, 3, 0]), row(5, [0, 1, 4])], COLOURS).features.map((feature) => feature.properties);
    expect(most.classColour).toBe('#2e9d57');
    expect(tie.classColour).toBe('#cf1322');
    expect(other.classColour).toBe('#8c8c8c');
    expect(classCountsOf(most)).toEqual([2, 7, 1]);
  });

  it('leaves a cluster without counts, or with counts for other classes than the map draws by, coloured by its state', () => {
    const [plain, stale] = clusterCollectionOf([row(10), row(10, [5, 5])], COLOURS).features.map((feature) => feature.properties);
    expect(plain).not.toHaveProperty('classColour');
    expect(stale).not.toHaveProperty('classColour');
    expect(classCountsOf(plain)).toBeUndefined();
    expect(clusterCollectionOf([row(10, [2, 7, 1])]).features[0].properties).not.toHaveProperty('classColour');
  });
});
