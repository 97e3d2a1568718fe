// Drawing and editing one entity's geometry on the map with terra-draw: draw a point, a polygon or
// a circle; then drag it to move it and drag its vertices to change it. Only the edited entity is
// in the drawing tool, so only one is editable at a time.
import { useEffect, useRef } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import { TerraDraw, TerraDrawCircleMode, TerraDrawPointMode, TerraDrawPolygonMode, TerraDrawSelectMode, type GeoJSONStoreFeatures } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import type { Geometry } from '../../schemas/geometry.ts';
import { drawnFeatureOf, geometryOfDrawn, type DrawnFeature, type DrawShape } from './core/geometryShapes.ts';

interface GeometryEditorProps {
  geometry: Geometry | null;
  /** The shape being drawn now, or undefined to move and reshape what is there. */
  drawing?: DrawShape;
  onChange(geometry: Geometry | null): void;
  onDrawn(): void;
}

const editable = { feature: { draggable: true, coordinates: { draggable: true, midpoints: true, deletable: true } } };

export function GeometryEditor({ geometry, drawing, onChange, onDrawn }: GeometryEditorProps) {
  const { current } = useMap();
  const drawRef = useRef<TerraDraw | undefined>(undefined);
  const callbacks = useRef({ onChange, onDrawn });
  callbacks.current = { onChange, onDrawn };
  const latest = useRef({ geometry, drawing });
  latest.current = { geometry, drawing };

  useEffect(() => {
    const map = current?.getMap();
    if (!map) return undefined;
    const draw = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map }),
      modes: [
        new TerraDrawPointMode(), new TerraDrawPolygonMode(), new TerraDrawCircleMode(),
        new TerraDrawSelectMode({ flags: { point: { feature: { draggable: true } }, polygon: editable, circle: { feature: { draggable: true } } } }),
      ],
    });
    const begin = () => {
      draw.start();
      drawRef.current = draw;
      map.getContainer().dataset.drawing = 'ready'; // the tool listens (tests wait for it)
      if (latest.current.geometry) draw.addFeatures([drawnFeatureOf(latest.current.geometry) as unknown as GeoJSONStoreFeatures]);
      draw.setMode(latest.current.drawing ?? 'select');
      draw.on('finish', (id) => {
        const feature = draw.getSnapshotFeature(id) as unknown as DrawnFeature | undefined;
        if (!feature) return;
        // one geometry per entity: a new drawing replaces the old one
        const others = draw.getSnapshot().filter((other) => other.id !== id).map((other) => other.id!);
        if (others.length) draw.removeFeatures(others);
        callbacks.current.onChange(geometryOfDrawn(feature));
        if (draw.getMode() !== 'select') {
          draw.setMode('select');
          callbacks.current.onDrawn();
        }
      });
    };
    if (map.isStyleLoaded()) begin();
    else map.once('load', begin);
    return () => {
      // closed before the style loaded: the next editor's tool must be the only one to start
      map.off('load', begin);
      drawRef.current = undefined;
      delete map.getContainer().dataset.drawing;
      if (draw.enabled) draw.stop();
    };
  }, [current]);

  // the geometry shown follows the edited entity
  useEffect(() => {
    const draw = drawRef.current;
    if (!draw?.enabled) return;
    const [shown] = draw.getSnapshot();
    const shownGeometry = shown ? geometryOfDrawn(shown as unknown as DrawnFeature) : null;
    if (JSON.stringify(shownGeometry) === JSON.stringify(geometry)) return;
    draw.clear();
    if (geometry) draw.addFeatures([drawnFeatureOf(geometry) as unknown as GeoJSONStoreFeatures]);
  }, [geometry]);

  useEffect(() => {
    const draw = drawRef.current;
    if (!draw?.enabled) return;
    draw.setMode(drawing ?? 'select');
  }, [drawing]);

  return null;
}
