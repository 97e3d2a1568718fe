// The point devices of a region as clusters on a grid, kept current one change at a time (GET
// /map-clusters, src/schemas/mapClusters.ts). At each zoom up to MAX_CLUSTER_ZOOM the world is cut
// into square cells CELL_PX screen pixels wide; a cell keeps how many devices lie in it, the sums of
// their positions and ids (a cell of one knows its device) and how many are in alarm, not connected
// and under maintenance. A change touches one cell per zoom; a viewport reads only its own cells.
// Unlike supercluster's greedy clusters, a device's cell never depends on its neighbours: that is
// what lets a change be applied without building the index again (docs/decisions.md).
// The devices themselves sit in typed arrays (a million and their cells cost ~85 MB, bench/README, and
// give the collector little to walk).
import {
  DEVICE_FLAGS, LIST_ALL_UP_TO, MAX_CLUSTER_ZOOM, MAX_VIEWPORT_CELLS, MAX_VIEWPORT_POINTS, type MapClusterRow, type MapPointRow,
} from '../../src/schemas/mapClusters.ts';
import { cellOf, cellRange, latitudeOf, longitudeOf, mercatorX, mercatorY, sideAt } from '../../src/shared/map/mapCells.ts';

export interface GridPoint { id: number; type: number; level: number; lng: number; lat: number; flags: number }

export interface Viewport { zoom: number; west: number; south: number; east: number; north: number }

/** Classes of devices a cluster counts apart (`classOf` a device's id: 0 up to `classes` − 1, at most 255). */
export interface Classes { classes: number; classOf(id: number): number }

export interface GridView { clusters: MapClusterRow[]; points: MapPointRow[]; zoom: number; levels: number[] }

export interface MapGrid {
  readonly size: number;
  /** Adds the device, or moves it and takes its new type, level and flags. */
  put(point: GridPoint): void;
  /**
   * Between these, `put` files devices at the finest zoom only and `endLoad` builds the coarser
   * zooms from it once: a million devices cost a million cell updates instead of seventeen million.
   * The grid answers nothing meaningful meanwhile (a grid being built is not yet shown).
   */
  beginLoad(): void;
  endLoad(): void;
  remove(id: number): void;
  /** The device's flags now (undefined when it is not in the grid). */
  flagsOf(id: number): number | undefined;
  setFlags(id: number, flags: number): void;
  /** Every device's id with its flags. */
  entries(): IterableIterator<[id: number, flags: number]>;
  /**
   * Keeps every device's class under `name` (a device put later is classed then) for views to count
   * clusters by: classing a million costs ~120 ms once, counting them in a view ~10 ms after.
   */
  keepClasses(name: string, classes: Classes): void;
  dropClasses(name: string): void;
  /** The device's class may have changed (its value did): each kept classing asks again. */
  reclass(id: number): void;
  /**
   * The viewport's clusters and lone devices (values null), or undefined when it covers more than
   * MAX_VIEWPORT_CELLS cells. With `classesName` (kept), each cluster also counts its devices of each class.
   */
  view(viewport: Viewport, classesName?: string): GridView | undefined;
  /** Bytes held, roughly. */
  bytes(): number;
}

interface Cell { count: number; lng: number; lat: number; id: number; alarm: number; offline: number; maintenance: number }

/** The key of the cell holding a mercator position at a zoom: column × side + row. */
function cellKey(x: number, y: number, zoom: number) {
  const side = sideAt(zoom);
  return cellOf(x, side) * side + cellOf(y, side);
}
/** A cell key's column and row on a side of `side` cells. */
function columnRow(key: number, side: number): [column: number, row: number] {
  const column = Math.floor(key / side);
  return [column, key - column * side];
}
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;
/** A device's share: its typed arrays, its entry in the id → slot map, its place in a cell's members. */
const SLOT_BYTES = 8 + 8 + 4 + 4 + 4 + 1 + 48;
const CELL_BYTES = 120;

const countFlags = (cell: Cell, flags: number, sign: number) => {
  if (flags & DEVICE_FLAGS.alarm) cell.alarm += sign;
  if (flags & DEVICE_FLAGS.offline) cell.offline += sign;
  if (flags & DEVICE_FLAGS.maintenance) cell.maintenance += sign;
};

export function mapGrid(): MapGrid {
  let capacity = 1024;
  let lngs = new Float64Array(capacity);
  let lats = new Float64Array(capacity);
  let ids = new Int32Array(capacity);
  let types = new Int32Array(capacity);
  let levels = new Int32Array(capacity);
  let flagBits = new Uint8Array(capacity);
  let used = 0;
  const free: number[] = [];
  const slotOf = new Map<number, number>();
  /** Per zoom: cell key (column × side + row) → cell. */
  const cells: Map<number, Cell>[] = Array.from({ length: MAX_CLUSTER_ZOOM + 1 }, () => new Map());
  /** The slots in each cell at MAX_CLUSTER_ZOOM (the devices listed when zoomed in past it). */
  const members = new Map<number, number[]>();
  /** Devices per map level. */
  const atLevel = new Map<number, number>();
  /** Kept classings (keepClasses): each device's class by slot. */
  const classings = new Map<string, Classes & { bySlot: Uint8Array }>();

  const grow = () => {
    capacity *= 2;
    const larger = <T extends Float64Array | Int32Array | Uint8Array>(array: T, Type: new (length: number) => T) => {
      const copy = new Type(capacity);
      copy.set(array);
      return copy;
    };
    lngs = larger(lngs, Float64Array); lats = larger(lats, Float64Array); ids = larger(ids, Int32Array);
    types = larger(types, Int32Array); levels = larger(levels, Int32Array); flagBits = larger(flagBits, Uint8Array);
    for (const classing of classings.values()) classing.bySlot = larger(classing.bySlot, Uint8Array);
  };

  /** While loading, only the finest zoom is counted (beginLoad). */
  let loading = false;

  /** Adds (+1) or takes away (-1) the slot's device in its cell at every zoom. */
  const count = (slot: number, sign: 1 | -1) => {
    const x = mercatorX(lngs[slot]);
    const y = mercatorY(lats[slot]);
    let key = 0;
    for (let zoom = loading ? MAX_CLUSTER_ZOOM : 0; zoom <= MAX_CLUSTER_ZOOM; zoom++) {
      key = cellKey(x, y, zoom);
      const zoomCells = cells[zoom];
      let cell = zoomCells.get(key);
      if (!cell) zoomCells.set(key, (cell = { count: 0, lng: 0, lat: 0, id: 0, alarm: 0, offline: 0, maintenance: 0 }));
      cell.count += sign;
      if (cell.count === 0) {
        zoomCells.delete(key);
        continue;
      }
      cell.lng += sign * lngs[slot];
      cell.lat += sign * lats[slot];
      cell.id += sign * ids[slot];
      countFlags(cell, flagBits[slot], sign);
    }
    const level = (atLevel.get(levels[slot]) ?? 0) + sign;
    if (level) atLevel.set(levels[slot], level);
    else atLevel.delete(levels[slot]);
    // key: the cell at MAX_CLUSTER_ZOOM
    const list = members.get(key) ?? [];
    if (sign > 0) {
      list.push(slot);
      members.set(key, list);
    } else {
      list[list.indexOf(slot)] = list[list.length - 1];
      list.pop();
      if (!list.length) members.delete(key);
    }
  };

  /** Each coarser zoom's cells as the sums of their four finer ones. */
  const rollUp = () => {
    for (let zoom = MAX_CLUSTER_ZOOM - 1; zoom >= 0; zoom--) {
      const finerSide = sideAt(zoom + 1);
      const side = sideAt(zoom);
      const coarse = new Map<number, Cell>();
      for (const [key, fine] of cells[zoom + 1]) {
        const [x, y] = columnRow(key, finerSide);
        const parent = Math.floor(x / 2) * side + Math.floor(y / 2);
        const cell = coarse.get(parent);
        if (!cell) {
          coarse.set(parent, { ...fine });
          continue;
        }
        cell.count += fine.count; cell.lng += fine.lng; cell.lat += fine.lat; cell.id += fine.id;
        cell.alarm += fine.alarm; cell.offline += fine.offline; cell.maintenance += fine.maintenance;
      }
      cells[zoom] = coarse;
    }
  };

  const remove = (id: number) => {
    const slot = slotOf.get(id);
    if (slot === undefined) return;
    count(slot, -1);
    slotOf.delete(id);
    free.push(slot);
  };

  const setFlags = (id: number, flags: number) => {
    const slot = slotOf.get(id);
    if (slot === undefined || flagBits[slot] === flags) return;
    const x = mercatorX(lngs[slot]);
    const y = mercatorY(lats[slot]);
    for (let zoom = loading ? MAX_CLUSTER_ZOOM : 0; zoom <= MAX_CLUSTER_ZOOM; zoom++) {
      const cell = cells[zoom].get(cellKey(x, y, zoom))!;
      countFlags(cell, flagBits[slot], -1);
      countFlags(cell, flags, 1);
    }
    flagBits[slot] = flags;
  };

  /** Visits the slots of a cell's devices, down its non-empty sub-cells to MAX_CLUSTER_ZOOM (work in proportion to its devices). */
  const eachMemberUnder = (zoom: number, key: number, visit: (slot: number) => void) => {
    if (zoom === MAX_CLUSTER_ZOOM) {
      for (const slot of members.get(key) ?? []) visit(slot);
      return;
    }
    const [x, y] = columnRow(key, sideAt(zoom));
    const finer = sideAt(zoom + 1);
    for (const child of [2 * x * finer + 2 * y, 2 * x * finer + 2 * y + 1, (2 * x + 1) * finer + 2 * y, (2 * x + 1) * finer + 2 * y + 1]) {
      if (cells[zoom + 1].has(child)) eachMemberUnder(zoom + 1, child, visit);
    }
  };

  /**
   * How many devices of each class each cluster (a cell at `zoom`) holds. Clusters holding many
   * devices are counted in one pass over the finest cells, few down their own sub-cells.
   */
  const classCounts = (zoom: number, clusterKeys: readonly number[], held: number, { classes, bySlot }: Classes & { bySlot: Uint8Array }) => {
    const counts = clusterKeys.map(() => new Array<number>(classes).fill(0));
    if (held * 20 < slotOf.size) { // down the sub-cells costs ~20 times a pass's share per device
      clusterKeys.forEach((key, index) => eachMemberUnder(zoom, key, (slot) => { counts[index][bySlot[slot]]++; }));
      return counts;
    }
    const clusterOf = new Map(clusterKeys.map((key, index) => [key, index]));
    const finest = sideAt(MAX_CLUSTER_ZOOM);
    const side = sideAt(zoom);
    const shrink = 2 ** (MAX_CLUSTER_ZOOM - zoom);
    for (const [key, slots] of members) {
      const [x, y] = columnRow(key, finest);
      const index = clusterOf.get(Math.floor(x / shrink) * side + Math.floor(y / shrink));
      if (index === undefined) continue;
      const cluster = counts[index];
      for (let i = 0; i < slots.length; i++) cluster[bySlot[slots[i]]]++;
    }
    return counts;
  };

  const pointRow = (slot: number): MapPointRow => [ids[slot], types[slot], levels[slot], lngs[slot], lats[slot], flagBits[slot], null];

  return {
    get size() {
      return slotOf.size;
    },
    put(point) {
      const existing = slotOf.get(point.id);
      if (existing !== undefined && lngs[existing] === point.lng && lats[existing] === point.lat && levels[existing] === point.level) {
        types[existing] = point.type;
        setFlags(point.id, point.flags);
        return;
      }
      remove(point.id);
      let slot = free.pop();
      if (slot === undefined) {
        if (used === capacity) grow();
        slot = used++;
      }
      lngs[slot] = point.lng; lats[slot] = point.lat; ids[slot] = point.id;
      types[slot] = point.type; levels[slot] = point.level; flagBits[slot] = point.flags;
      for (const classing of classings.values()) classing.bySlot[slot] = classing.classOf(point.id);
      slotOf.set(point.id, slot);
      count(slot, 1);
    },
    beginLoad() {
      loading = true;
    },
    endLoad() {
      loading = false;
      rollUp();
    },
    remove,
    flagsOf(id) {
      const slot = slotOf.get(id);
      return slot === undefined ? undefined : flagBits[slot];
    },
    setFlags,
    *entries() {
      for (const [id, slot] of slotOf) yield [id, flagBits[slot]];
    },
    keepClasses(name, classes) {
      if (classings.has(name)) return;
      const bySlot = new Uint8Array(capacity);
      for (const [id, slot] of slotOf) bySlot[slot] = classes.classOf(id);
      classings.set(name, { ...classes, bySlot });
    },
    dropClasses(name) {
      classings.delete(name);
    },
    reclass(id) {
      const slot = slotOf.get(id);
      if (slot === undefined) return;
      for (const classing of classings.values()) classing.bySlot[slot] = classing.classOf(id);
    },
    view({ zoom, ...bounds }, classesName) {
      const zoomedIn = Math.floor(zoom) > MAX_CLUSTER_ZOOM;
      const { cellZoom, side, x0, x1, y0, y1, cells: cellsInRange } = cellRange(bounds, zoom);
      if (cellsInRange > MAX_VIEWPORT_CELLS) return undefined;
      const zoomCells = cells[cellZoom];
      const inView: number[] = [];
      if (cellsInRange < zoomCells.size) {
        for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) if (zoomCells.has(x * side + y)) inView.push(x * side + y);
      } else {
        for (const key of zoomCells.keys()) {
          const [x, y] = columnRow(key, side);
          if (x >= x0 && x <= x1 && y >= y0 && y <= y1) inView.push(key);
        }
      }
      const clusters: MapClusterRow[] = [];
      const clusterKeys: number[] = [];
      const points: MapPointRow[] = [];
      const levelsHeld = [...atLevel.keys()].sort((a, b) => a - b);
      let total = 0;
      for (const key of inView) total += zoomCells.get(key)!.count;
      if (total <= LIST_ALL_UP_TO) {
        for (const key of inView) eachMemberUnder(cellZoom, key, (slot) => points.push(pointRow(slot)));
        return { clusters, points, zoom: cellZoom, levels: levelsHeld };
      }
      for (const key of inView) {
        const cell = zoomCells.get(key)!;
        if (cell.count === 1) {
          points.push(pointRow(slotOf.get(cell.id)!));
        } else if (zoomedIn && points.length + cell.count <= MAX_VIEWPORT_POINTS) {
          for (const slot of members.get(key)!) points.push(pointRow(slot));
        } else {
          const [x, y] = columnRow(key, side);
          clusters.push([
            round6(cell.lng / cell.count), round6(cell.lat / cell.count), cell.count, cell.alarm, cell.offline, cell.maintenance,
            round6(longitudeOf(x / side)), round6(latitudeOf((y + 1) / side)), round6(longitudeOf((x + 1) / side)), round6(latitudeOf(y / side)),
          ]);
          clusterKeys.push(key);
        }
      }
      const classing = classesName === undefined ? undefined : classings.get(classesName);
      if (classing && clusters.length) {
        const held = clusters.reduce((sum, cluster) => sum + cluster[2], 0);
        classCounts(cellZoom, clusterKeys, held, classing).forEach((counts, index) => clusters[index].push(counts));
      }
      return { clusters, points, zoom: cellZoom, levels: levelsHeld };
    },
    bytes() {
      let cellCount = 0;
      for (const zoomCells of cells) cellCount += zoomCells.size;
      return capacity * (SLOT_BYTES + classings.size) + cellCount * CELL_BYTES;
    },
  };
}
