// The demo tenants' KPIs, one of each kind of chart the dashboard shows, on keys the demo devices
// really report (demoTelemetry.ts), with their names in every interface language; and the demo
// administrators' KPI presets listing them (line charts across the dashboard, the others half).
// `demoKpis` is pure data; `seedDemoKpis` writes it.
import type { Tx } from '../db/database.ts';
import { kpiGroups, kpiPresets, kpis } from '../db/schema.ts';
import type { KpiPreset } from '../../src/schemas/kpiPreset.ts';

/** What the seed made that the KPIs measure and belong to. */
export interface DemoKpiScope {
  tenantId: string;
  /** The administrators, who start with a preset of these KPIs. */
  adminIds: string[];
  entityTypes: { lamp: number; environment: number; parking: number };
  groups: { lighting: number; environment: number; parking: number };
  /** Each zone with the energy meters in it (energy per zone). */
  zones: { name: string; meterIds: number[] }[];
}

export interface DemoKpi {
  /** As stored; tests/api/demoKpis.test.ts saves each back through the KPI model's rules. */
  kpi: Pick<typeof kpis.$inferInsert, 'name' | 'category' | 'query' | 'definition'>;
  groupIds: number[];
  /** Its width in the administrators' preset (columns of 24). */
  presetWidth: number;
}

/** A gauge of indoor air: good below 800 ppm, poor from 1,200, the scale ending at 2,000. */
const CO2_MAXIMUM = 2000;
const co2Ranges = [
  { from: 0, to: 800, color: '#52c41a', label: 'Good' },
  { from: 800, to: 1200, color: '#faad14', label: 'Moderate' },
  { from: 1200, to: CO2_MAXIMUM, color: '#f5222d', label: 'Poor' },
].map((range) => ({ ...range, property: 'co2', measure: 'ppm' }));

export function demoKpis(scope: DemoKpiScope): DemoKpi[] {
  const { entityTypes, groups } = scope;
  return [
    {
      kpi: {
        // two value axes: °C on the left, % on the right, each scaled to its own series
        name: { en: 'Temperature and humidity', sk: 'Teplota a vlhkosť', de: 'Temperatur und Luftfeuchtigkeit', cs: 'Teplota a vlhkost', ko: '온도와 습도', pt: 'Temperatura e umidade' },
        category: 'environment',
        definition: { chart: 'line', time_interval: '1h', time_range: '24h', width: 24, legend: true, decimals: 1 },
        query: [
          { key: 'temperature', entity_type_ids: [entityTypes.environment], aggregation: 'avg' },
          { key: 'humidity', entity_type_ids: [entityTypes.environment], aggregation: 'avg', y_axis: 'right' },
        ],
      },
      groupIds: [groups.environment],
      presetWidth: 24,
    },
    {
      kpi: {
        name: { en: 'Street lamp power', sk: 'Príkon pouličných lámp', de: 'Leistung der Straßenlampen', cs: 'Příkon pouličních lamp', ko: '가로등 전력', pt: 'Potência da iluminação pública' },
        category: 'lighting',
        definition: {
          chart: 'line', time_interval: '1h', time_range: '24h', width: 24, legend: true, decimals: 1,
          compare: { compare_shift: 'days', compare_by: 1 },
        },
        query: [{ key: 'power', entity_type_ids: [entityTypes.lamp], aggregation: 'avg' }],
      },
      groupIds: [groups.lighting],
      presetWidth: 24,
    },
    {
      // one stack per zone: the consumption its meters report, summed per day
      kpi: {
        name: { en: 'Energy per day by zone', sk: 'Energia za deň podľa zón', de: 'Energie pro Tag nach Zone', cs: 'Energie za den podle zón', ko: '구역별 일일 에너지', pt: 'Energia por dia e zona' },
        category: 'energy',
        definition: { chart: 'stacked-bar', time_interval: '1d', time_range: '30d', width: 12, legend: true, decimals: 1 },
        query: scope.zones.map((zone) => ({ label: zone.name, key: 'consumption', entity_ids: zone.meterIds, aggregation: 'sum' })),
      },
      groupIds: [groups.environment],
      presetWidth: 12,
    },
    {
      kpi: {
        name: { en: 'CO₂ level', sk: 'Úroveň CO₂', de: 'CO₂-Gehalt', cs: 'Úroveň CO₂', ko: 'CO₂ 농도', pt: 'Nível de CO₂' },
        category: 'environment',
        definition: {
          chart: 'gauge', time_interval: '1h', time_range: '24h', width: 12, decimals: 0,
          max: CO2_MAXIMUM, colour_mapping: co2Ranges, out_of_bounds_color: '#8c8c8c',
        },
        query: [{ key: 'co2', entity_type_ids: [entityTypes.environment], aggregation: 'latest-value' }],
      },
      groupIds: [groups.environment],
      presetWidth: 12,
    },
    {
      // each parking space's latest state: 1 occupied, 0 free
      kpi: {
        name: { en: 'Parking occupancy', sk: 'Obsadenosť parkoviska', de: 'Parkplatzbelegung', cs: 'Obsazenost parkoviště', ko: '주차 점유율', pt: 'Ocupação do estacionamento' },
        category: 'parking',
        definition: { chart: 'donut', time_interval: '1h', time_range: '24h', series: 'per_entity', width: 12, legend: true, decimals: 0 },
        query: [{ key: 'occupied', entity_type_ids: [entityTypes.parking], aggregation: 'latest-value' }],
      },
      groupIds: [groups.parking],
      presetWidth: 12,
    },
    {
      kpi: {
        name: { en: 'Environment readings', sk: 'Merania prostredia', de: 'Umweltmesswerte', cs: 'Měření prostředí', ko: '환경 측정값', pt: 'Leituras ambientais' },
        category: 'environment',
        definition: { chart: 'data-table', time_interval: '1h', time_range: '24h', page_size: 10, width: 12, decimals: 1 },
        query: [
          { key: 'temperature', entity_type_ids: [entityTypes.environment], aggregation: 'avg' },
          { key: 'humidity', entity_type_ids: [entityTypes.environment], aggregation: 'avg' },
          { key: 'co2', entity_type_ids: [entityTypes.environment], aggregation: 'avg' },
        ],
      },
      groupIds: [groups.environment],
      presetWidth: 12,
    },
  ];
}

/** Writes the tenant's demo KPIs, their groups and the administrators' presets; answers the KPIs' ids in order. */
export async function seedDemoKpis(tx: Tx, scope: DemoKpiScope): Promise<number[]> {
  const planned = demoKpis(scope);
  const created = await tx.insert(kpis).values(planned.map(({ kpi }) => ({ tenantId: scope.tenantId, ...kpi }))).returning({ id: kpis.id });
  // identities are drawn in the order of the rows
  const ids = created.map((row) => row.id).sort((a, b) => a - b);
  await tx.insert(kpiGroups).values(planned.flatMap(({ groupIds }, index) => groupIds.map((groupId) => ({ tenantId: scope.tenantId, kpiId: ids[index], groupId }))));
  const items: KpiPreset['items'] = planned.map(({ presetWidth }, index) => ({ kpi_id: ids[index], width: presetWidth }));
  if (scope.adminIds.length) {
    await tx.insert(kpiPresets).values(scope.adminIds.map((userUuid) => ({ tenantId: scope.tenantId, userUuid, module: 'factory-dashboard', items })));
  }
  return ids;
}
