// The server's clusters of devices (GET /map-clusters): a circle per cell of several devices, sized
// by how many and coloured by the worst among them — in alarm, else not connected, else under
// maintenance — with its count written on it (HTML labels: the offline base map has no glyphs). A
// click on one zooms to its cell (clusterBoundsOf); hovering one shows its counts (ClusterCard).
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Layer, Marker, Popup, Source, useMap } from 'react-map-gl/maplibre';
import type { MapClusterRow } from '../../schemas/mapClusters.ts';
import { clusterCollectionOf, SERVER_CLUSTER_LAYER, WORST_COLOUR, type ClusterProperties } from './core/clusterFeatures.ts';
import './core/facilityMap.css';

const SOURCE = 'device-cluster-source';
/** Count labels drawn at most (the clusters beyond keep their circle). */
const MAX_LABELS = 300;

export function ClusterLayer({ clusters }: { clusters: readonly MapClusterRow[] }) {
  const { i18n } = useTranslation();
  const { current } = useMap();
  const data = useMemo(() => clusterCollectionOf(clusters), [clusters]);
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
            'circle-color': WORST_COLOUR,
            'circle-opacity': 0.85,
            'circle-radius': ['step', ['get', 'count'], 13, 100, 17, 1000, 21, 10000, 25],
            'circle-stroke-color': '#ffffff',
            'circle-stroke-width': 1.5,
          }} />
      </Source>
      {shown.map(([lng, lat, count, alarm, offline, maintenance], index) => (
        <Marker key={`${lng},${lat},${index}`} longitude={lng} latitude={lat} anchor="center" style={{ pointerEvents: 'none' }}>
          {/* the exact counts on the element (the browser tests add them up) */}
          <span className="cluster-count" aria-hidden="true" data-count={count} data-alarm={alarm} data-offline={offline} data-maintenance={maintenance}>{format.format(count)}</span>
        </Marker>
      ))}
    </>
  );
}

export interface HoveredCluster { cluster: ClusterProperties; longitude: number; latitude: number }

/** What a pointer resting on a cluster shows: how many devices, in alarm, not connected, under maintenance. */
export function ClusterCard({ hovered }: { hovered: HoveredCluster }) {
  const { t, i18n } = useTranslation();
  const { count, alarm, offline, maintenance } = hovered.cluster;
  const number = (value: number) => value.toLocaleString(i18n.language);
  return (
    <Popup longitude={hovered.longitude} latitude={hovered.latitude} closeButton={false} closeOnClick={false} offset={14} maxWidth="240px">
      <div data-testid="cluster-card">
        <strong>{t('map.cluster.devices', { value: number(count) })}</strong>
        {alarm > 0 && <div>{t('map.cluster.alarm', { value: number(alarm) })}</div>}
        {offline > 0 && <div>{t('map.cluster.offline', { value: number(offline) })}</div>}
        {maintenance > 0 && <div>{t('map.cluster.maintenance', { value: number(maintenance) })}</div>}
        <div>{t('map.cluster.zoomIn')}</div>
      </div>
    </Popup>
  );
}
