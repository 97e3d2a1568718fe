// Marks each member of a chosen group with its group's id (feature state GROUP_STATE), for the
// group colours; the marks of the groups chosen before are taken off first. Done again when the
// sources are re-created (`redrawn`), which drops their feature states.
import { useEffect } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import { GROUP_STATE } from './groupColours.ts';

export function useGroupFeatureState(sources: readonly string[], memberGroup: ReadonlyMap<number, number>, redrawn: unknown): void {
  const { current: map } = useMap();
  useEffect(() => {
    if (!map || memberGroup.size === 0) return undefined;
    const targets = sources.filter((source) => map.getSource(source));
    for (const [id, group] of memberGroup) for (const source of targets) map.setFeatureState({ source, id }, { [GROUP_STATE]: group });
    return () => {
      for (const source of targets) {
        if (!map.getSource(source)) continue;
        for (const id of memberGroup.keys()) map.removeFeatureState({ source, id }, GROUP_STATE);
      }
    };
  }, [map, sources, memberGroup, redrawn]);
}
