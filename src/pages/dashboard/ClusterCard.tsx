// What a pointer resting on one of the server's clusters (ClusterLayer) shows: how many devices, in
// alarm, not connected, under maintenance, and while the map colours by groups or rules how many
// are in each group or meet each rule.
import { useTranslation } from 'react-i18next';
import { Popup } from 'react-map-gl/maplibre';
import { classCountsOf, type ClusterProperties } from '../../components/map/core/clusterFeatures.ts';
import { ColourSwatch } from './ColourSwatch.tsx';
import type { LegendEntry } from './useColourLegend.ts';

export interface HoveredCluster { cluster: ClusterProperties; longitude: number; latitude: number }

interface ClusterCardProps {
  hovered: HoveredCluster;
  /** The map's colours (useColourLegend), in the order the cluster counts its devices by them. */
  legend: readonly LegendEntry[];
}

export function ClusterCard({ hovered, legend }: ClusterCardProps) {
  const { t, i18n } = useTranslation();
  const { count, alarm, offline, maintenance } = hovered.cluster;
  const byClass = classCountsOf(hovered.cluster);
  const number = (value: number) => value.toLocaleString(i18n.language);
  return (
    <Popup longitude={hovered.longitude} latitude={hovered.latitude} closeButton={false} closeOnClick={false} offset={14} maxWidth="260px">
      <div data-testid="cluster-card">
        <strong>{t('map.cluster.devices', { value: number(count) })}</strong>
        {alarm > 0 && <div>{t('map.cluster.alarm', { value: number(alarm) })}</div>}
        {offline > 0 && <div>{t('map.cluster.offline', { value: number(offline) })}</div>}
        {maintenance > 0 && <div>{t('map.cluster.maintenance', { value: number(maintenance) })}</div>}
        {byClass?.length === legend.length && (
          <ul className="cluster-card-classes" data-testid="cluster-card-classes">
            {legend.map((entry, index) => byClass[index] > 0 && (
              <li key={`${entry.colour}:${entry.label}`}><ColourSwatch colour={entry.colour} /> {t('map.cluster.class', { name: entry.label, value: number(byClass[index]) })}</li>
            ))}
          </ul>
        )}
        <div>{t('map.cluster.zoomIn')}</div>
      </div>
    </Popup>
  );
}
