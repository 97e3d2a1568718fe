import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapGrid, type GridPoint, type GridView, type Viewport } from '../../../server/cache/mapGrid.ts';
import { DEVICE_FLAGS, LIST_ALL_UP_TO, MAX_CLUSTER_ZOOM, MAX_VIEWPORT_CELLS, type MapClusterRow } from '../../../src/schemas/mapClusters.ts';

const BRATISLAVA = { lng: 17.1, lat: 48.14 };
const CITY: Viewport = { zoom: 12, west: 16.9, south: 48.0, east: 17.3, north: 48.3 };
/** Where a crowd stands in the city's view: enough devices that the view is drawn in clusters. */
const CROWD = { lng: 16.95, lat: 48.27 };

function crowd(grid: ReturnType<typeof mapGrid>, firstId = 100_000) {
  for (let i = 0; i < LIST_ALL_UP_TO; i++) grid.put({ id: firstId + i, type: 9, level: 0, lng: CROWD.lng + (i % 40) * 1e-5, lat: CROWD.lat + Math.floor(i / 40) * 1e-5, flags: 0 });
}
/** The view's clusters other than the crowd's. */
const near = (view: { clusters: MapClusterRow[] }) => view.clusters.filter(([lng]) => Math.abs(lng - CROWD.lng) > 0.01);

/** The devices a viewport of the grid represents, members of clusters counted, with their flags summed. */
function represented(view: NonNullable<ReturnType<ReturnType<typeof mapGrid>['view']>>) {
  const totals = { count: view.points.length, alarm: 0, offline: 0, maintenance: 0 };
  for (const [, , , , , flags] of view.points) {
    if (flags & DEVICE_FLAGS.alarm) totals.alarm++;
    if (flags & DEVICE_FLAGS.offline) totals.offline++;
    if (flags & DEVICE_FLAGS.maintenance) totals.maintenance++;
  }
  for (const [, , count, alarm, offline, maintenance] of view.clusters) {
    totals.count += count; totals.alarm += alarm; totals.offline += offline; totals.maintenance += maintenance;
  }
  return totals;
}

const expected = (points: Iterable<GridPoint>) => {
  const totals = { count: 0, alarm: 0, offline: 0, maintenance: 0 };
  for (const { flags } of points) {
    totals.count++;
    if (flags & DEVICE_FLAGS.alarm) totals.alarm++;
    if (flags & DEVICE_FLAGS.offline) totals.offline++;
    if (flags & DEVICE_FLAGS.maintenance) totals.maintenance++;
  }
  return totals;
};

describe('the map grid', () => {
  it('lists every device of a view that holds few, close ones too, with the levels held', () => {
    const grid = mapGrid();
    grid.put({ id: 7, type: 3, level: 0, ...BRATISLAVA, flags: DEVICE_FLAGS.alarm });
    grid.put({ id: 8, type: 3, level: 2, lng: BRATISLAVA.lng + 0.00001, lat: BRATISLAVA.lat, flags: 0 });
    const view = grid.view(CITY)!;
    expect(view.clusters).toEqual([]);
    expect(view.points.map(([id]) => id).sort()).toEqual([7, 8]);
    expect(view.levels).toEqual([0, 2]);
  });

  it('in a view of many, shows a lone device as itself and close ones as a cluster with its counts and cell', () => {
    const grid = mapGrid();
    crowd(grid);
    grid.put({ id: 7, type: 3, level: 0, ...BRATISLAVA, flags: DEVICE_FLAGS.alarm });
    grid.put({ id: 8, type: 3, level: 0, lng: BRATISLAVA.lng + 0.00001, lat: BRATISLAVA.lat, flags: DEVICE_FLAGS.offline | DEVICE_FLAGS.maintenance });
    grid.put({ id: 9, type: 4, level: 1, lng: 17.25, lat: 48.2, flags: 0 });
    const view = grid.view(CITY)!;
    expect(view.zoom).toBe(12);
    expect(view.points).toEqual([[9, 4, 1, 17.25, 48.2, 0, null]]);
    expect(near(view)).toHaveLength(1);
    const [lng, lat, count, alarm, offline, maintenance, west, south, east, north] = near(view)[0];
    expect([count, alarm, offline, maintenance]).toEqual([2, 1, 1, 1]);
    expect(lng).toBeCloseTo(BRATISLAVA.lng, 4);
    expect(lat).toBeCloseTo(BRATISLAVA.lat, 4);
    expect(west).toBeLessThanOrEqual(BRATISLAVA.lng);
    expect(east).toBeGreaterThan(BRATISLAVA.lng);
    expect(south).toBeLessThanOrEqual(BRATISLAVA.lat);
    expect(north).toBeGreaterThan(BRATISLAVA.lat);
    // zoomed in past the clusters, both devices are listed
    const close = grid.view({ zoom: MAX_CLUSTER_ZOOM + 2, west: 17.099, south: 48.139, east: 17.101, north: 48.141 })!;
    expect(close.points.map(([id]) => id).sort()).toEqual([7, 8]);
    expect(close.clusters).toEqual([]);
  });

  it('moves a cluster\'s counts with a changed flag, a moved device and a removed one', () => {
    const grid = mapGrid();
    crowd(grid);
    for (let id = 1; id <= 10; id++) grid.put({ id, type: 1, level: 0, lng: BRATISLAVA.lng + id * 1e-6, lat: BRATISLAVA.lat, flags: 0 });
    grid.setFlags(3, DEVICE_FLAGS.alarm);
    expect(near(grid.view(CITY)!)[0].slice(2, 6)).toEqual([10, 1, 0, 0]);
    grid.put({ id: 3, type: 1, level: 0, lng: 17.25, lat: 48.2, flags: DEVICE_FLAGS.alarm });
    grid.remove(4);
    const view = grid.view(CITY)!;
    expect(near(view)[0].slice(2, 6)).toEqual([8, 0, 0, 0]);
    expect(view.points).toEqual([[3, 1, 0, 17.25, 48.2, DEVICE_FLAGS.alarm, null]]);
    expect(grid.size).toBe(9 + LIST_ALL_UP_TO);
    expect(grid.flagsOf(4)).toBeUndefined();
  });

  it('counts a cluster\'s devices by class alike whether the view holds few of the grid\'s devices or most', () => {
    const grid = mapGrid();
    crowd(grid);
    grid.put({ id: 7, type: 3, level: 0, ...BRATISLAVA, flags: 0 }); // one more than a view lists alone
    const classOf = (id: number) => id % 4;
    grid.keepClasses('quarters', { classes: 4, classOf });
    const crowdClasses = [0, 0, 0, 0];
    for (let id = 1; id <= LIST_ALL_UP_TO; id++) crowdClasses[classOf(100_000 + id - 1)]++;
    /** The crowd's clusters' counts by class, added up. */
    const crowdCounts = (view: GridView) => view.clusters.filter(([lng]) => Math.abs(lng - CROWD.lng) < 0.01)
      .reduce((sum, row) => sum.map((count, index) => count + row[10]![index]), [0, 0, 0, 0]);
    // most of the grid in view: counted in one pass over the finest cells
    expect(crowdCounts(grid.view(CITY, 'quarters')!)).toEqual(crowdClasses);
    // and far away, twenty times as many: counted down the clusters' own cells
    for (let id = 10; id < 10 + 20 * LIST_ALL_UP_TO; id++) grid.put({ id, type: 1, level: 0, lng: -70 + (id % 100) * 1e-3, lat: -30 + Math.floor(id / 100) * 1e-3, flags: 0 });
    expect(crowdCounts(grid.view(CITY, 'quarters')!)).toEqual(crowdClasses);
  });

  it('refuses a viewport of more cells than an answer may hold', () => {
    const grid = mapGrid();
    grid.put({ id: 1, type: 1, level: 0, ...BRATISLAVA, flags: 0 });
    expect(grid.view({ zoom: 16, west: 16, south: 47, east: 18, north: 49 })).toBeUndefined();
    // the whole world at zoom 3 is 64 × 64 cells: within bounds
    expect(represented(grid.view({ zoom: 3, west: -180, south: -85, east: 180, north: 85 })!).count).toBe(1);
    expect(64 * 64).toBeLessThanOrEqual(MAX_VIEWPORT_CELLS);
  });

  it('represents every device in view exactly once, with its flags, across random changes (property)', () => {
    const point = fc.record({
      id: fc.integer({ min: 1, max: 60 }),
      type: fc.integer({ min: 1, max: 3 }),
      level: fc.integer({ min: 0, max: 2 }),
      lng: fc.double({ min: 0, max: 1, noNaN: true }),
      lat: fc.double({ min: 0, max: 1, noNaN: true }),
      flags: fc.integer({ min: 0, max: 7 }),
    });
    const change = fc.oneof(
      point.map((p) => ({ kind: 'put' as const, p })),
      fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ kind: fc.constant('flags' as const), id: fc.integer({ min: 1, max: 60 }), flags: fc.integer({ min: 0, max: 7 }) }),
    );
    fc.assert(fc.property(fc.array(change, { maxLength: 200 }), fc.integer({ min: 0, max: 20 }), fc.boolean(), (given, zoom, crowded) => {
      // the devices lie in an area the viewport's cells can hold at this zoom
      const span = 0.2 / 2 ** Math.max(0, zoom - 10);
      const placed = (p: GridPoint) => ({ ...p, lng: 17 + p.lng * span, lat: 48.1 + (p.lat * span) / 2 });
      const changes = given.map((c) => (c.kind === 'put' ? { ...c, p: placed(c.p) } : c));
      const grid = mapGrid();
      const truth = new Map<number, GridPoint>();
      if (crowded) {
        // as many again as a view lists alone, in the area: the view is drawn in clusters
        for (let i = 0; i < LIST_ALL_UP_TO; i++) {
          const p = placed({ id: 1_000 + i, type: 1, level: 0, lng: (i % 50) / 50, lat: Math.floor(i / 50) / 40, flags: i % 8 });
          grid.put(p);
          truth.set(p.id, p);
        }
      }
      for (const c of changes) {
        if (c.kind === 'put') { grid.put(c.p); truth.set(c.p.id, c.p); }
        if (c.kind === 'remove') { grid.remove(c.id); truth.delete(c.id); }
        if (c.kind === 'flags') { grid.setFlags(c.id, c.flags); const p = truth.get(c.id); if (p) truth.set(c.id, { ...p, flags: c.flags }); }
      }
      // counted by class (a colour rule met): classed when kept, when put after, and again when told its value changed
      const shift = { by: 0 };
      const classOf = (id: number) => (id + shift.by) % 3;
      grid.keepClasses('thirds', { classes: 3, classOf });
      shift.by = 1;
      const late = placed({ id: 61, type: 1, level: 0, lng: 0.5, lat: 0.5, flags: 0 });
      grid.put(late);
      truth.set(late.id, late);
      for (const id of truth.keys()) if (id !== late.id) grid.reclass(id);
      expect(grid.size).toBe(truth.size);
      const view = grid.view({ zoom, west: 17, south: 48.1, east: 17 + span, north: 48.1 + span / 2 })!;
      expect(represented(view)).toEqual(expected(truth.values()));
      for (const [id, type, level, lng, lat, flags] of view.points) expect(truth.get(id)).toEqual({ id, type, level, lng, lat, flags });
      // the same devices loaded at once (the finest zoom, then rolled up) answer the same
      const loaded = mapGrid();
      loaded.beginLoad();
      for (const p of truth.values()) loaded.put(p);
      loaded.endLoad();
      const sorted = (rows: unknown[][]) => rows.map((row) => JSON.stringify(row.map((v) => (typeof v === 'number' ? Math.round(v * 1e5) / 1e5 : v)))).sort();
      const again = loaded.view({ zoom, west: 17, south: 48.1, east: 17 + span, north: 48.1 + span / 2 })!;
      expect(sorted(again.points)).toEqual(sorted(view.points));
      expect(sorted(again.clusters)).toEqual(sorted(view.clusters));
      expect(again.levels).toEqual(view.levels);
      const classed = grid.view({ zoom, west: 17, south: 48.1, east: 17 + span, north: 48.1 + span / 2 }, 'thirds')!;
      const byClass = [0, 0, 0];
      for (const [id] of classed.points) byClass[classOf(id)]++;
      for (const cluster of classed.clusters) {
        const counts = cluster[10]!;
        expect(counts.reduce((sum, count) => sum + count, 0)).toBe(cluster[2]);
        counts.forEach((count, index) => { byClass[index] += count; });
      }
      const truthByClass = [0, 0, 0];
      for (const id of truth.keys()) truthByClass[classOf(id)]++;
      expect(byClass).toEqual(truthByClass);
      expect(classed.clusters.map((row) => row.slice(0, 10))).toEqual(view.clusters);
    }), { numRuns: 150 });
  });
});
