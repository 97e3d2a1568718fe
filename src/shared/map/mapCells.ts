// The cells of the map's clusters (GET /map-clusters): Web Mercator positions and the grid of
// CELL_PX-wide cells at each zoom (MapLibre's 512-pixel tiles). The server files devices by them
// (server/cache/mapGrid.ts); the browser asks for a viewport no larger than an answer may cover.
import { CELL_PX, MAX_CLUSTER_ZOOM, MAX_VIEWPORT_CELLS } from '../../schemas/mapClusters.ts';

const CELLS_PER_TILE = 512 / CELL_PX;
const MAX_LATITUDE = 85.0511287798;

/** Cells across the world at a zoom. */
export const sideAt = (zoom: number) => CELLS_PER_TILE * 2 ** zoom;
/** A longitude as a fraction of the world's width (0 at −180°). */
export const mercatorX = (lng: number) => (lng + 180) / 360;
/** A latitude as a fraction of the world's height (0 at the top). */
export function mercatorY(lat: number) {
  const sin = Math.sin((Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}
export const longitudeOf = (x: number) => x * 360 - 180;
export const latitudeOf = (y: number) => (180 / Math.PI) * Math.atan(Math.sinh(Math.PI * (1 - 2 * y)));
/** The column or row of a mercator fraction on a side of `side` cells. */
export const cellOf = (value: number, side: number) => Math.max(0, Math.min(side - 1, Math.floor(value * side)));

export interface Bounds { west: number; south: number; east: number; north: number }

/** The columns and rows a viewport touches at a zoom, on the cells of `cellZoom` (the zoom, whole, at most MAX_CLUSTER_ZOOM). */
export function cellRange({ west, south, east, north }: Bounds, zoom: number) {
  const cellZoom = Math.max(0, Math.min(MAX_CLUSTER_ZOOM, Math.floor(zoom)));
  const side = sideAt(cellZoom);
  const x0 = cellOf(mercatorX(Math.min(west, east)), side);
  const x1 = cellOf(mercatorX(Math.max(west, east)), side);
  const y0 = cellOf(mercatorY(Math.max(south, north)), side);
  const y1 = cellOf(mercatorY(Math.min(south, north)), side);
  return { cellZoom, side, x0, x1, y0, y1, cells: (x1 - x0 + 1) * (y1 - y0 + 1) };
}

/** The highest whole zoom, at most `zoom`, at which the viewport's cells fit one answer (a tilted map sees far). */
export function answerableZoom(bounds: Bounds, zoom: number): number {
  let whole = Math.max(0, Math.floor(zoom));
  while (whole > 0 && cellRange(bounds, whole).cells > MAX_VIEWPORT_CELLS) whole--;
  return whole;
}

/** The share of the screen asked for beyond it on each side: a short pan needs no new answer. */
export const VIEWPORT_MARGIN = 0.25;

/**
 * What the map asks GET /map-clusters for when it shows `bounds` at `zoom`: the bounds grown by
 * VIEWPORT_MARGIN on every side (within the world), at the exact zoom, or at the highest whole one
 * whose cells fit one answer when the grown bounds are too large (a tilted map sees far).
 */
export function viewportQuery({ west, south, east, north }: Bounds, zoom: number): Bounds & { zoom: number } {
  const width = east - west;
  const height = north - south;
  const clamp = (value: number, limit: number) => Math.round(Math.max(-limit, Math.min(limit, value)) * 1e6) / 1e6;
  const grown = {
    west: clamp(west - width * VIEWPORT_MARGIN, 180), east: clamp(east + width * VIEWPORT_MARGIN, 180),
    south: clamp(south - height * VIEWPORT_MARGIN, 85.05), north: clamp(north + height * VIEWPORT_MARGIN, 85.05),
  };
  const whole = answerableZoom(grown, zoom);
  return { ...grown, zoom: whole < Math.floor(zoom) ? whole : zoom };
}
