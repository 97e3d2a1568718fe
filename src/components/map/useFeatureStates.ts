// Sets one feature state (`key`) on the entities of a map's sources, each its value (a member of a
// chosen group: its group's id, GROUP_STATE; an entity under device maintenance: true); the marks
// set before are taken off first. Done again when the sources are re-created (`redrawn`), which
// drops their feature states.
import { useEffect } from 'react';
import { useMap } from 'react-map-gl/maplibre';

export function useFeatureStates(sources: readonly string[], key: string, values: ReadonlyMap<number, unknown>, redrawn: unknown): void {
  const { current: map } = useMap();
  useEffect(() => {
    if (!map || values.size === 0) return undefined;
    const targets = sources.filter((source) => map.getSource(source));
    for (const [id, value] of values) for (const source of targets) map.setFeatureState({ source, id }, { [key]: value });
    return () => {
      for (const source of targets) {
        if (!map.getSource(source)) continue;
        for (const id of values.keys()) map.removeFeatureState({ source, id }, key);
      }
    };
  }, [map, sources, key, values, redrawn]);
}
