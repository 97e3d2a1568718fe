// Live changes for the map, gathered per animation frame: however many entity_updated messages
// arrive, the map's sources are updated once a frame, with only the changed features.
import { useLiveSubscription } from '../../../providers/useLiveSubscription.ts';
import { positionOf, type MapPatch } from './useMapFeatures.ts';
import { MAP_ENTITY_UPDATES } from './queries.ts';

export type PatchListener = (patches: Map<number, MapPatch>) => void;

export interface PatchStream {
  subscribe(listener: PatchListener): () => void;
  /** Takes an entity update; `attribute`: the one the map colours by. */
  receive(update: EntityUpdateMessage, attribute: string | undefined): void;
}

export interface EntityUpdateMessage { id: string; diff: { attributes?: Record<string, unknown>; geom?: unknown; deleted?: boolean } }

export function createPatchStream(): PatchStream {
  const listeners = new Set<PatchListener>();
  let pending = new Map<number, MapPatch>();
  let frame = 0;
  const flush = () => {
    frame = 0;
    const patches = pending;
    pending = new Map();
    for (const listener of listeners) listener(patches);
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    receive(update, attribute) {
      const id = Number(update.id);
      const patch: MapPatch = { ...pending.get(id) };
      if (update.diff.deleted) patch.deleted = true;
      if (update.diff.geom !== undefined) patch.position = positionOf(update.diff.geom);
      if (attribute !== undefined && update.diff.attributes && attribute in update.diff.attributes) patch.value = update.diff.attributes[attribute];
      if (update.diff.attributes && 'active' in update.diff.attributes) patch.state = true;
      if (Object.keys(patch).length === 0) return; // telemetry only: nothing the map shows
      pending.set(id, patch);
      frame ||= requestAnimationFrame(flush);
    },
  };
}

/** Every entity update of the tenant goes to the map's patch stream while the component is mounted. */
export function useMapEntityUpdates(patches: PatchStream, attribute: string | undefined): void {
  useLiveSubscription<{ entity_updated: EntityUpdateMessage }>({ query: MAP_ENTITY_UPDATES }, ({ entity_updated: update }) => patches.receive(update, attribute));
}
