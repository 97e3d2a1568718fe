import { describe, expect, it } from 'vitest';
import { geometryProblem, MAX_POSITIONS, type Geometry } from '../../../src/schemas/geometry.ts';

const ring = [[17.1, 48.1], [17.2, 48.1], [17.2, 48.2], [17.1, 48.1]] as [number, number][];

describe('geometryProblem', () => {
  it('accepts points, circles, closed polygons and multipolygons, and no position', () => {
    for (const geom of [
      null, undefined,
      { type: 'Point', coordinates: [17.1, 48.1] },
      { type: 'Point', coordinates: [17.1, 48.1], radius: 10 },
      { type: 'Polygon', coordinates: [ring] },
      { type: 'Polygon', coordinates: [ring, ring] }, // with a hole
      { type: 'MultiPolygon', coordinates: [[ring], [ring]] },
    ] as (Geometry | null | undefined)[]) expect(geometryProblem(geom), JSON.stringify(geom)).toBeUndefined();
  });

  it('names what is wrong', () => {
    expect(geometryProblem({ type: 'Polygon', coordinates: [ring.slice(0, 3)] })).toBe('every ring of a polygon must end where it starts');
    expect(geometryProblem({ type: 'MultiPolygon', coordinates: [[ring], [ring.slice(0, 3)]] })).toBe('every ring of a polygon must end where it starts');
    expect(geometryProblem({ type: 'MultiPolygon', coordinates: [ring] } as unknown as Geometry)).toBe('the coordinates of a MultiPolygon must be a list of polygons');
    expect(geometryProblem({ type: 'Polygon', coordinates: [ring], radius: 3 } as unknown as Geometry)).toBe('only a point (a circle\'s centre) may have a radius');
    const long = [...Array.from({ length: MAX_POSITIONS / 2 }, (_, i) => [17 + i / 1e6, 48] as [number, number]), [17, 48] as [number, number]];
    expect(geometryProblem({ type: 'Polygon', coordinates: [long, long] })).toBe('a geometry has at most 20,000 positions');
  });
});
