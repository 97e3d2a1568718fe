import { describe, expect, it } from 'vitest';
import { cornersAround, overlayProblem, scaledCorners, withCornerMoved, type Corners } from '../../../src/schemas/overlay.ts';
import { entitySchema } from '../../../src/schemas/entity.ts';
import type { Geometry } from '../../../src/schemas/geometry.ts';
import type { ModelSchema } from '../../../src/schemas/model.ts';
import { formSchemaOf, formValuesOf } from '../../../src/pages/studio/studioKinds.ts';

const square: Corners = [[0, 2], [2, 2], [2, 0], [0, 0]];
const url = '/entity/1/overlay-image';

describe('overlay placement', () => {
  it('draws the corners scaled about their centre, and keeps them at scale 1', () => {
    expect(scaledCorners({ coordinates: square, scale: 1 })).toEqual(square);
    expect(scaledCorners({ coordinates: square, scale: 2 })).toEqual([[-1, 3], [3, 3], [3, -1], [-1, -1]]);
    expect(scaledCorners({ coordinates: square, scale: 0.5 })).toEqual([[0.5, 1.5], [1.5, 1.5], [1.5, 0.5], [0.5, 0.5]]);
  });

  it('keeps a dragged corner where it was dropped and the others where they were drawn, at scale 1', () => {
    const moved = withCornerMoved({ coordinates: square, scale: 2 }, 1, [5, 5]);
    expect(moved).toEqual({ coordinates: [[-1, 3], [5, 5], [3, -1], [-1, -1]], scale: 1 });
    expect(scaledCorners(moved)).toEqual(moved.coordinates);
  });

  it('places a first image about 200 m wide around a point, its aspect kept', () => {
    const [tl, tr, br, bl] = cornersAround([17.109, 48.145], 2);
    expect(tl[0]).toBeLessThan(tr[0]);
    expect(tl[1]).toBeGreaterThan(bl[1]);
    expect(tr).toEqual([br[0], tl[1]]);
    const widthM = (tr[0] - tl[0]) * 111_320 * Math.cos((48.145 * Math.PI) / 180);
    const heightM = (tl[1] - bl[1]) * 110_574;
    expect(widthM).toBeCloseTo(200, 6);
    expect(heightM).toBeCloseTo(100, 6);
  });

  it('refuses a corner beyond the map\'s latitudes', () => {
    expect(overlayProblem({ url, coordinates: square })).toBeUndefined();
    expect(overlayProblem({ url, coordinates: [[0, 2], [2, 2], [2, -86], [0, 0]] })).toBe('coordinates[2] latitude must be within ±85.0511');
  });
});

describe('the studio form of a kind', () => {
  const model = entitySchema as unknown as ModelSchema;

  it('keeps only the kind\'s fields; a declared attribute comes in a section without the JSON editor', () => {
    const schema = formSchemaOf(model, ['name', 'attributes.color', 'attributes.size']);
    expect(Object.keys(schema.properties!)).toEqual(['name', 'attributes']);
    expect(schema.required).toEqual(['name']);
    expect(schema.properties!.attributes['x-widget']).toBeUndefined();
    expect(Object.keys(schema.properties!.attributes.properties!)).toEqual(['color', 'size']);
    expect(schema.properties!.attributes.properties!.color['x-widget']).toBe('colour');
  });

  it('takes the entity\'s values of those fields, nested ones included', () => {
    const entity = { name: { en: 'Old Town' }, level: 2, attributes: { color: '#123456', other: 1 } };
    expect(formValuesOf(entity, ['name', 'level', 'attributes.color', 'attributes.size'])).toEqual({
      name: { en: 'Old Town' }, level: 2, attributes: { color: '#123456' },
    });
  });
});

describe('a region\'s extent', () => {
  it('is the circle of its size around its centre, in its colour, when it has both', async () => {
    const { regionExtentOf } = await import('../../../src/components/map/RegionExtentLayer.tsx');
    const geom: Geometry = { type: 'Point', coordinates: [17.1, 48.1] };
    expect(regionExtentOf({ geom, attributes: { size: 600, color: '#1677ff' } })).toEqual({ centre: [17.1, 48.1], size: 600, colour: '#1677ff' });
    expect(regionExtentOf({ geom, attributes: { size: 600 } })).toEqual({ centre: [17.1, 48.1], size: 600, colour: undefined });
    expect(regionExtentOf({ geom, attributes: { size: '600' } })).toBeUndefined();
    expect(regionExtentOf({ geom: null, attributes: { size: 600 } })).toBeUndefined();
    expect(regionExtentOf({ geom: { type: 'Polygon', coordinates: [] }, attributes: { size: 600 } })).toBeUndefined();
  });
});
