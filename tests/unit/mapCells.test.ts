import { describe, expect, it } from 'vitest';
import { MAX_VIEWPORT_CELLS } from '../../src/schemas/mapClusters.ts';
import { cellRange, viewportQuery } from '../../src/shared/map/mapCells.ts';

describe('the viewport the map asks for', () => {
  it('is the screen and a quarter of it around, at the map\'s own zoom when its cells fit one answer', () => {
    const query = viewportQuery({ west: 17.0, south: 48.1, east: 17.2, north: 48.2 }, 13.4);
    expect(query).toEqual({ west: 16.95, south: 48.075, east: 17.25, north: 48.225, zoom: 13.4 });
    expect(cellRange(query, query.zoom).cells).toBeLessThanOrEqual(MAX_VIEWPORT_CELLS);
  });

  it('drops to the highest whole zoom whose cells fit when a tilted map sees to the horizon, within the world', () => {
    const query = viewportQuery({ west: -170, south: -80, east: 170, north: 84 }, 12.7);
    expect(query.zoom).toBeLessThan(12);
    expect(Number.isInteger(query.zoom)).toBe(true);
    expect(cellRange(query, query.zoom).cells).toBeLessThanOrEqual(MAX_VIEWPORT_CELLS);
    expect(cellRange(query, query.zoom + 1).cells).toBeGreaterThan(MAX_VIEWPORT_CELLS);
    expect([query.west, query.east, query.north]).toEqual([-180, 180, 85.05]);
  });
});
