// The parts of a KPI record a chart reads (src/schemas/kpi.ts) and what a chart draws from.
import type { FromSchema } from 'json-schema-to-ts';
import type { kpiSchema } from '../../schemas/kpi.ts';
import type { KpiDataAnswer } from '../../schemas/kpiDataQuery.ts';

// fields with a default may be missing (a draft in the KPI builder): the chart applies the defaults
type KpiAsRead = FromSchema<typeof kpiSchema, { keepDefaultedPropertiesOptional: true }>;
export type KpiDefinition = KpiAsRead['definition'];
export type KpiQueryItem = KpiAsRead['query'][number];
export type ChartType = KpiDefinition['chart'];
export type KpiSeries = KpiDataAnswer['series'][number];
export type ValueAxis = NonNullable<KpiDefinition['y_axis']>;

/** One drawn point: a series' value at a bucket's start. */
export interface ChartRow {
  /** The bucket's start as an instant (ISO text, unique per bucket even when local hours repeat). */
  ts: string;
  time: Date;
  value: number;
  /** The series' name as drawn and in the legend (unique within the chart). */
  series: string;
  /** The query item's label (else key), without the entity. */
  label: string;
  /** The entity's name when the series is one entity's, else ''. */
  entity: string;
  entityId: number | null;
  key: string;
  /** The comparison series' point: measured at sourceTime, drawn at time. */
  compare: boolean;
  /** The value axis of its series. */
  axis: ValueAxis;
  sourceTime?: Date;
}

/** A labelled instant drawn across a time-scale chart (a lighting day's sunrise and sunset). */
export interface ChartMarker {
  at: Date;
  label: string;
}

/** What a chart needs besides the KPI and its data: the interface language and its words. */
export interface ChartContext {
  language: string;
  /**
   * The zone its times are shown in, instead of the KPI's (kpiTimeZone): a chart of something
   * other than a KPI's answer, such as a lighting profile's day in the tenant's zone.
   */
  timeZone?: string;
  /** A fixed range of the value axis instead of one fitted to the values (a lamp's level: 0–100). */
  valueDomain?: readonly [number, number];
  /** Instants marked on a time-scale chart (no other type has a true time axis to mark). */
  markers?: readonly ChartMarker[];
  /** Names of the entities a per-entity series belongs to. */
  entityNames?: Record<number, string>;
  /** The translated suffix of the comparison series' name, e.g. "(compared)". */
  comparedSuffix: string;
  /** A key's name in the interface language, for series without a label of their own. */
  attributeName?: (key: string) => string;
}
