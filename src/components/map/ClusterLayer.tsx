// The server's clusters of devices (GET /map-clusters): a circle per cell of several devices, sized
// by how many and coloured by the worst among them — in alarm, else not connected, else under
// maintenance; while the map colours by rules or groups, by the rule or group most of them are in,
// ringed by the worst — with its count written on it (HTML labels: the offline base map has no
// glyphs). A click on one zooms to its cell (clusterBoundsOf); hovering one shows its counts (the
// dashboard's ClusterCard).
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Layer, Marker, Source, useMap } from 'react-map-gl/maplibre';
import type { MapClusterRow } from '../../schemas/mapClusters.ts';
import { CLUSTER_FILL, CLUSTER_RING, CLUSTER_RING_WIDTH, clusterCollectionOf, SERVER_CLUSTER_LAYER } from './core/clusterFeatures.ts';
import './core/facilityMap.css';

const SOURCE = 'device-cluster-source';
/** Count labels drawn at most (the clusters beyond keep their circle). */
const MAX_LABELS = 300;

interface ClusterLayerProps {
  clusters: readonly MapClusterRow[];
  /** The colour of each class (a rule, a group) and last of the rest, while the clusters count by them. */
  classColours?: readonly string[];
}

export function ClusterLayer({ clusters, classColours }: ClusterLayerProps) {
  const { i18n } = useTranslation();
  const { current } = useMap();
  const data = useMemo(() => clusterCollectionOf(clusters, classColours), [clusters, classColours]);
  // labels for the clusters on screen (the answer covers a margin around it), none while the map
  // moves: a label is an element the browser would move each frame
  const [shown, setShown] = useState<MapClusterRow[]>([]);
  useEffect(() => {
    const map = current?.getMap();
    if (!map) return undefined;
    const label = () => {
      const bounds = map.getBounds();
      setShown(clusters.filter(([lng, lat]) => bounds.contains([lng, lat])).slice(0, MAX_LABELS));
    };
    const hide = () => setShown([]);
    if (!map.isMoving()) label();
    map.on('movestart', hide);
    map.on('moveend', label);
    return () => {
      map.off('movestart', hide);
      map.off('moveend', label);
    };
  }, [current, clusters]);
  const format = useMemo(() => new Intl.NumberFormat(i18n.language, { notation: 'compact' }), [i18n.language]);
  return (
    <>
      <Source id={SOURCE} type="geojson" data={data}>
        <Layer id={SERVER_CLUSTER_LAYER} type="circle"
          paint={{
            'circle-color': CLUSTER_FILL,
            'circle-opacity': 0.85,
            'circle-radius': ['step', ['get', 'count'], 13, 100, 17, 1000, 21, 10000, 25],
            'circle-stroke-color': CLUSTER_RING,
            'circle-stroke-width': CLUSTER_RING_WIDTH,
          }} />
      </Source>
      {shown.map(([lng, lat, count, alarm, offline, maintenance, , , , , classes], index) => (
        <Marker key={`${lng},${lat},${index}`} longitude={lng} latitude={lat} anchor="center" style={{ pointerEvents: 'none' }}>
          {/* the exact counts on the element (the browser tests add them up) */}
          <span className="cluster-count" aria-hidden="true" data-count={count} data-alarm={alarm} data-offline={offline} data-maintenance={maintenance}
            data-classes={classes?.join()}>{format.format(count)}</span>
        </Marker>
      ))}
    </>
  );
}
