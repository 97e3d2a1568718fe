// Sets one feature state (`key`) on the entities of a map's sources, each its value (a member of a
// chosen group: its group's id, GROUP_STATE; an entity under device maintenance: true); the marks
// set before are taken off first. Done again when the sources are re-created (`redrawn`), which
// drops their feature states, and on each source as soon as it exists: the values may come before
// the map has added it (its style still loading, as after a reload).
import { useEffect } from 'react';
import { useMap } from 'react-map-gl/maplibre';

export function useFeatureStates(sources: readonly string[], key: string, values: ReadonlyMap<number, unknown>, redrawn: unknown): void {
  const { current } = useMap();
  useEffect(() => {
    const map = current?.getMap();
    if (!map || values.size === 0) return undefined;
    const marked = new Set<string>();
    const mark = () => {
      for (const source of sources) {
        if (marked.has(source) || !map.getSource(source)) continue;
        for (const [id, value] of values) map.setFeatureState({ source, id }, { [key]: value });
        marked.add(source);
      }
      if (marked.size === sources.length) map.off('sourcedata', mark);
    };
    map.on('sourcedata', mark);
    mark();
    return () => {
      map.off('sourcedata', mark);
      for (const source of marked) {
        if (!map.getSource(source)) continue;
        for (const id of values.keys()) map.removeFeatureState({ source, id }, key);
      }
    };
  }, [current, sources, key, values, redrawn]);
}
