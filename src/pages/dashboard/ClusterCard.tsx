// What a pointer resting on one of the server's clusters (ClusterLayer) shows: how many devices, in
// alarm, not connected, under maintenance, and while the map colours by rules how many meet each.
import { useTranslation } from 'react-i18next';
import { Popup } from 'react-map-gl/maplibre';
import { ruleCountsOf, type ClusterProperties } from '../../components/map/core/clusterFeatures.ts';
import { ColourSwatch } from './ColourSwatch.tsx';
import type { LegendEntry } from './useRuleText.ts';

export interface HoveredCluster { cluster: ClusterProperties; longitude: number; latitude: number }

interface ClusterCardProps {
  hovered: HoveredCluster;
  /** The colour rules in effect and last the colour of other values (useRuleLegend), in the order the cluster counts them. */
  ruleLegend: readonly LegendEntry[];
}

export function ClusterCard({ hovered, ruleLegend }: ClusterCardProps) {
  const { t, i18n } = useTranslation();
  const { count, alarm, offline, maintenance } = hovered.cluster;
  const byRule = ruleCountsOf(hovered.cluster);
  const number = (value: number) => value.toLocaleString(i18n.language);
  return (
    <Popup longitude={hovered.longitude} latitude={hovered.latitude} closeButton={false} closeOnClick={false} offset={14} maxWidth="260px">
      <div data-testid="cluster-card">
        <strong>{t('map.cluster.devices', { value: number(count) })}</strong>
        {alarm > 0 && <div>{t('map.cluster.alarm', { value: number(alarm) })}</div>}
        {offline > 0 && <div>{t('map.cluster.offline', { value: number(offline) })}</div>}
        {maintenance > 0 && <div>{t('map.cluster.maintenance', { value: number(maintenance) })}</div>}
        {byRule?.length === ruleLegend.length && (
          <ul className="cluster-card-rules" data-testid="cluster-card-rules">
            {ruleLegend.map((entry, index) => byRule[index] > 0 && (
              <li key={`${entry.colour}:${entry.label}`}><ColourSwatch colour={entry.colour} /> {t('map.cluster.rule', { rule: entry.label, value: number(byRule[index]) })}</li>
            ))}
          </ul>
        )}
        <div>{t('map.cluster.zoomIn')}</div>
      </div>
    </Popup>
  );
}
