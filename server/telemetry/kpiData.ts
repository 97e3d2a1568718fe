// GET /kpi-data (SPEC §7, docs/api.md "KPI data"): a KPI's time series for its reader. The KPI
// comes through the resource engine (its read rule, the caller's tenant); its range and buckets
// from kpiTime.ts; its numbers from the coarsest telemetry rows that answer exactly.
// Every refusal a client can cause is 400 `BAD_KPI_DATA` 'Bad kpi_data' or 404 `NO_KPI_DATA`
// 'No KPI data found' (SPEC §8). POST /kpi-preview answers an unsaved draft the same way, for
// whoever may write KPIs, after the checks a stored KPI gets.
import { idList } from '../../src/schemas/bounds.ts';
import { kpiSchema, type Kpi } from '../../src/schemas/kpi.ts';
import { MAX_POINTS_PER_SERIES, type KpiDataAnswer, type KpiDataQuery } from '../../src/schemas/kpiDataQuery.ts';
import type { KpiPreviewBody } from '../../src/schemas/kpiPreview.ts';
import { validated } from '../schemaValidator.ts';
import type { Database } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/databaseErrors.ts';
import {
  itemEntitiesQuery, kpiSeriesQuery, timeZoneCheckQuery, type ItemEntitiesRow, type SeriesRow,
} from '../db/kpiDataQueries.ts';
import { ApiError } from '../errors.ts';
import { schemaOf } from '../resources/registry.ts';
import { authorize, visibilityKey } from '../resources/resourceAccess.ts';
import type { ResourceService } from '../resources/resourceService.ts';
import { checkKpiDefinition } from '../resources/rules/kpiRules.ts';
import type { Caller } from '../auth/caller.ts';
import { SETTLE_MS, type BucketPoint, type ClosedBuckets, type SeriesPoints } from '../cache/closedBuckets.ts';
import { freshFor, type Computed, type KpiAnswerCache } from '../cache/kpiAnswerCache.ts';
import { readBudget, type ReadBudget } from '../services/readBudget.ts';
import { largestTriangleThreeBuckets } from './downsample.ts';
import { BadRange, bucketCount, bucketStart, canonicalZone, compareRange, foldedPlan, isKnownTimeZone, kpiRange, planRows, rangePieces, sourcePlan, type KpiRange } from '../time/kpiTime.ts';
import { foldWatermark } from './foldWatermark.ts';

/** Entities of one query item, at most. */
export const MAX_ENTITIES_PER_ITEM = 1_000;
/** Buckets of one series, at most (a minute a point over a week fits). */
export const MAX_BUCKETS = 20_000;
/** Points of one answer, at most (series × buckets). */
export const MAX_POINTS = 200_000;
/**
 * Source rows one answer may read, at most (entities × the plan's cost in rows, estimated): about
 * a second and a half inside the embedded database, in statements of MAX_STATEMENT_ROWS.
 */
export const MAX_SOURCE_ROWS = 1_000_000;
/**
 * Source rows one statement reads, at most (estimated; more only when one bucket needs them): about
 * 70 ms inside the embedded database, so the other requests wait no longer than that between them.
 */
export const MAX_STATEMENT_ROWS = 50_000;
const DAY_MS = 86_400_000;

export const BAD_KPI_DATA = 'Bad kpi_data';
export const NO_KPI_DATA = 'No KPI data found';
export const badKpiData = (field?: string, params?: Record<string, string | number>) => new ApiError(400, 'BAD_KPI_DATA', BAD_KPI_DATA, field, params);
const noKpiData = () => new ApiError(404, 'NO_KPI_DATA', NO_KPI_DATA);

/** Who may read KPI data: whoever may read the KPI (its model's read rule), before any parameter is looked at. */
export const authorizeKpiData = (caller: Caller) => authorize(caller, schemaOf('kpi'), 'read');

/**
 * Who may preview a draft: whoever may create or update a KPI (its model's rules), before the
 * body is looked at; the first refusal is the answer when neither is allowed.
 */
export function authorizeKpiPreview(caller: Caller): void {
  try {
    authorize(caller, schemaOf('kpi'), 'create');
  } catch (refused) {
    try {
      authorize(caller, schemaOf('kpi'), 'update');
    } catch {
      throw refused;
    }
  }
}

type QueryItem = Kpi['query'][number];
type KpiPoint = KpiDataAnswer['series'][number]['data'][number];
type Definition = Kpi['definition'];
/** What an answer reads of a KPI, stored or draft. */
interface KpiDraft { query: QueryItem[]; definition: Definition }
/** The answer of a KPI without its id (a draft has none). */
type SeriesAnswer = Pick<KpiDataAnswer, 'timezone' | 'interval' | 'from' | 'to' | 'compare_from' | 'compare_to' | 'series'>;
/**
 * What the reader asks besides the KPI: only these of its entities, the zone, points per series;
 * `reuse`: the closed buckets of the last answer under this key may be read again.
 */
interface ReadOptions { only?: number[]; timezone: string; maxPoints: number; reuse?: string }

const ids = (value: unknown): number[] => (Array.isArray(value) ? value.filter((id): id is number => Number.isSafeInteger(id) && id > 0) : []);

const pick = <T extends object>(object: T, keys: (keyof T)[]) => Object.fromEntries(keys.map((key) => [key, object[key]]));
// What this read uses of a stored KPI, checked by the KPI schema's own field rules. Other fields
// are not this read's business (the seed's KPI, for one, names an `entity_type_id` of its own).
const definitionFields = kpiSchema.properties.definition.properties;
const usedDefinition = {
  type: 'object',
  properties: pick(definitionFields, ['time_interval', 'time_range', 'time_shift', 'date_range', 'floating_start', 'floating_window', 'series', 'compare']),
};
const itemFields = kpiSchema.properties.query.items;
const usedQuery = {
  type: 'array',
  maxItems: kpiSchema.properties.query.maxItems,
  items: { type: 'object', required: itemFields.required, properties: pick(itemFields.properties, ['label', 'key', 'aggregation', 'entity_ids', 'entity_type_ids']) },
};

/** The stored value checked by `schema`, or 400 Bad kpi_data naming the field. */
function checked<T>(schema: object, value: unknown, field: string): T {
  try {
    return validated<T>(schema, value, field);
  } catch (error) {
    if (error instanceof ApiError) {
      const inner = error.items[0]?.field;
      throw badKpiData(inner && inner !== field ? `${field}.${inner}` : field);
    }
    throw error;
  }
}

export interface KpiDataOptions {
  /** The zones whose local days are kept as a roll-up (server/telemetry/dayZones.ts). */
  localDayZones?: readonly string[];
  /** Answers shared by the callers who would get the same (none: each request computes its own). */
  answers?: KpiAnswerCache<KpiDataAnswer>;
  /** The closed buckets of stored KPIs' answers, read again by their next computation (none: every computation reads its whole range). */
  closed?: ClosedBuckets;
  /** TELEMETRY_RETENTION_DAYS: buckets of data that old may be dropped at any time, so they are never reused. */
  retentionDays?: number;
  /** Each answer's reads are one of the caller's expensive reads. */
  budget?: ReadBudget;
  clock?: () => number;
}

export function kpiDataService(db: Database, resources: ResourceService, options: KpiDataOptions = {}) {
  const { localDayZones = [], budget = readBudget(), clock = Date.now, answers, closed, retentionDays } = options;
  const watermark = foldWatermark(db);
  // Whether PostgreSQL knows a zone: asked once per name (only names Intl knows get here, a finite
  // set but for letter case). Only its answer is kept; a database that cannot answer now fails the
  // request (503).
  const knownToDatabase = new Map<string, boolean>();
  const databaseKnows = async (zone: string) => {
    let known = knownToDatabase.get(zone);
    if (known === undefined) {
      try {
        await db.systemQuery(timeZoneCheckQuery(zone));
        known = true;
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw error;
        known = false; // 22023: time zone not recognized
      }
      knownToDatabase.set(zone, known);
    }
    return known;
  };

  /** The zone (`canonicalZone`), when both Intl and PostgreSQL know it. */
  async function timeZoneOf(requested: string): Promise<string> {
    if (!isKnownTimeZone(requested)) throw badKpiData('timezone');
    const zone = canonicalZone(requested);
    if (!(await databaseKnows(zone))) throw badKpiData('timezone');
    return zone;
  }

  async function kpiOf(caller: Caller, id: number): Promise<Kpi> {
    try {
      return await resources.get(caller, 'kpi', id) as unknown as Kpi;
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 404) throw noKpiData();
      throw error;
    }
  }

  return {
    series(caller: Caller, request: KpiDataQuery): Promise<KpiDataAnswer> {
      authorizeKpiData(caller);
      if (!answers) return budget.run(caller, async () => (await storedSeries(caller, request)).answer);
      // what the caller may see of KPIs, and what they ask: callers alike share the answer, and
      // its buckets whatever the points per series
      const buckets = JSON.stringify([visibilityKey(caller, schemaOf('kpi')), request.id, request.entity_ids ?? null, request.timezone ?? 'UTC']);
      const key = `${buckets}\u0000${request.max_points ?? MAX_POINTS_PER_SERIES}`;
      return answers.answer(caller.tenantId, key, () => budget.run(caller, () => storedSeries(caller, request, buckets)));
    },

    /** An unsaved KPI's series (POST /kpi-preview); the body is valid by its schema (the route's). */
    preview(caller: Caller, body: KpiPreviewBody): Promise<SeriesAnswer> {
      authorizeKpiPreview(caller);
      checkKpiDefinition(body.definition);
      const draft: KpiDraft = { query: body.query, definition: body.definition };
      const options = { only: body.entity_ids, timezone: body.timezone ?? 'UTC', maxPoints: body.max_points ?? MAX_POINTS_PER_SERIES };
      return budget.run(caller, () => answerOf(caller, async () => draft, options));
    },
  };

  /** The stored KPI's answer, and how long it may be reused (its refresh interval); `reuse`: the key of its closed buckets. */
  async function storedSeries(caller: Caller, request: KpiDataQuery, reuse?: string): Promise<Computed<KpiDataAnswer>> {
    const only = request.entity_ids === undefined ? undefined : idList(request.entity_ids);
    if (request.entity_ids !== undefined && !only) throw badKpiData('entity_ids');
    let refreshSeconds: number | undefined;
    const stored = async (): Promise<KpiDraft> => {
      const kpi = await kpiOf(caller, request.id);
      const refresh = (kpi.definition as { refresh_interval?: unknown } | undefined)?.refresh_interval;
      refreshSeconds = typeof refresh === 'number' ? refresh : undefined;
      return {
        definition: checked<Definition>(usedDefinition, kpi.definition ?? {}, 'definition'),
        query: checked<QueryItem[]>(usedQuery, kpi.query ?? [], 'query'),
      };
    };
    const answer = await answerOf(caller, stored, { only, timezone: request.timezone ?? 'UTC', maxPoints: request.max_points ?? MAX_POINTS_PER_SERIES, reuse });
    return { answer: { id: request.id, ...answer }, freshMs: freshFor(refreshSeconds) };
  }

  /**
   * The series of a KPI, stored or draft (`readKpi`, asked once the zone is known to be good), for
   * this caller: one code path for both doors, under the same limits. Its entities are the
   * caller's tenant's only (other ids match nothing).
   */
  async function answerOf(caller: Caller, readKpi: () => Promise<KpiDraft>, { only, timezone, maxPoints, reuse }: ReadOptions): Promise<SeriesAnswer> {
    const now = clock();
    const zone = await timeZoneOf(timezone);
    const { definition, query: items } = await readKpi();

    let range: KpiRange;
    let compared: ReturnType<typeof compareRange>;
    try {
      range = kpiRange(definition, zone, now);
      compared = compareRange(range, definition.compare, zone);
    } catch (error) {
      if (error instanceof BadRange) throw badKpiData('definition');
      throw error;
    }
    const ranges = compared ? [range, compared.range] : [range];
    const buckets = bucketCount(range);
    if (buckets > MAX_BUCKETS) throw badKpiData('definition', { limit: MAX_BUCKETS });

    const entityRows = items.length
      ? await db.tenantQuery<ItemEntitiesRow>(caller.tenantId, itemEntitiesQuery(caller.tenantId,
        items.map((item) => ({ entityIds: ids(item.entity_ids), entityTypeIds: ids(item.entity_type_ids), key: item.key })), only, MAX_ENTITIES_PER_ITEM))
      : [];
    const entitiesOf = items.map((_item, index) => (entityRows.find((row) => Number(row.item) === index)?.ids ?? []).map(Number));
    if (entitiesOf.some((list) => list.length > MAX_ENTITIES_PER_ITEM)) throw badKpiData('entity_ids', { limit: MAX_ENTITIES_PER_ITEM });

    const perEntity = definition.series === 'per_entity';
    const entityCount = entitiesOf.reduce((total, list) => total + list.length, 0);
    const seriesCount = perEntity ? entityCount : items.length;
    if (ranges.length * seriesCount * buckets > MAX_POINTS) throw badKpiData('definition', { limit: MAX_POINTS });
    const localDays = localDayZones.includes(zone);
    // the roll-ups up to the folder's line, raw points after it (counted up to now)
    const folded = await watermark();
    const planOf = (read: KpiRange) => foldedPlan(sourcePlan(zone, read, localDays), zone, folded);
    const rowsOf = (read: KpiRange) => entityCount * planRows(planOf(read), now);
    const costs = ranges.map(rowsOf);
    if (costs.reduce((total, cost) => total + cost, 0) > MAX_SOURCE_ROWS) throw badKpiData('definition', { limit: MAX_SOURCE_ROWS });

    /** Points of `from`…`to` per item and entity (`item:entity`) into `series`, one statement per piece so none holds the database for long. */
    const readInto = async (series: SeriesPoints, readRange: KpiRange, cost: number) => {
      for (const piece of rangePieces(readRange, zone, Math.ceil(cost / MAX_STATEMENT_ROWS))) {
        const query = kpiSeriesQuery({
          tenantId: caller.tenantId, plan: planOf(piece), zone, interval: readRange.interval, perEntity,
          items: items.map((item, index) => ({ item: index, key: item.key, aggregation: item.aggregation, entityIds: entitiesOf[index] })),
        });
        for (const row of query ? await db.tenantQuery<SeriesRow>(caller.tenantId, query) : []) {
          const key = `${row.item}:${row.entity_id ?? ''}`;
          series.set(key, [...series.get(key) ?? [], ...bucketPoints(row.data)]);
        }
      }
    };
    // what decides a bucket's value besides its instant (closedBuckets.ts)
    const shape = JSON.stringify([zone, range.interval, perEntity, items.map((item) => [item.key, item.aggregation]), entitiesOf]);
    /**
     * The range's points: the closed buckets of the last computation under `reuse` + `part` that
     * are still final, the rest from the database; what is final now is kept for the next. Never
     * data retention may drop meanwhile.
     */
    const read = async (readRange: KpiRange, cost: number, part: string): Promise<SeriesPoints> => {
      const series: SeriesPoints = new Map();
      const key = reuse === undefined ? undefined : `${reuse}\u0000${part}`;
      if (!closed || key === undefined || (retentionDays !== undefined && readRange.from < now - retentionDays * DAY_MS)) {
        await readInto(series, readRange, cost);
        return series;
      }
      const watch = closed.watch(caller.tenantId);
      try {
        const last = closed.kept(caller.tenantId, key, shape);
        const reusedUntil = last && last.from <= readRange.from && last.closedUntil > readRange.from ? Math.min(last.closedUntil, readRange.to) : readRange.from;
        if (reusedUntil > readRange.from) {
          for (const [name, points] of last!.series) series.set(name, points.filter(([at]) => at >= readRange.from && at < reusedUntil));
        }
        if (reusedUntil < readRange.to) {
          const rest = { ...readRange, from: reusedUntil };
          await readInto(series, rest, reusedUntil === readRange.from ? cost : rowsOf(rest));
        }
        const closedUntil = Math.min(readRange.to, bucketStart(zone, readRange.interval, now - SETTLE_MS));
        closed.keep(caller.tenantId, key, shape, readRange.from, closedUntil, series, watch, reusedUntil > readRange.from ? last!.keptAt : undefined);
        return series;
      } catch (error) {
        closed.unwatch(caller.tenantId, watch);
        throw error;
      }
    };
    const dataOf = await read(range, costs[0], 'range');
    const comparedDataOf = compared ? await read(compared.range, costs[1], 'compared') : undefined;

    const series: KpiDataAnswer['series'][number][] = [];
    items.forEach((item, index) => {
      const addSeries = (entityId: number | null) => {
        const key = `${index}:${entityId ?? ''}`;
        const own = { item: index, label: item.label || item.key, key: item.key, aggregation: item.aggregation, entity_id: entityId };
        series.push({ ...own, ...fitted(points(dataOf.get(key)), maxPoints) });
        // the compared points drawn over the chart's range, each with the instant it was measured for
        if (compared) series.push({ ...own, compare: true, ...fitted(points(comparedDataOf!.get(key), compared.onChart), maxPoints) });
      };
      if (perEntity) for (const entityId of entitiesOf[index]) addSeries(entityId);
      else addSeries(null);
    });
    return {
      timezone: zone, interval: range.interval,
      from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString(),
      ...(compared ? { compare_from: new Date(compared.range.from).toISOString(), compare_to: new Date(compared.range.to).toISOString() } : {}),
      series,
    };
  }
}
export type KpiDataService = ReturnType<typeof kpiDataService>;

/** A series' points as the chart can draw them: at most `maxPoints`, cut to its shape beyond. */
function fitted(data: KpiPoint[], maxPoints: number): { data: KpiPoint[]; downsampled?: true } {
  return data.length > maxPoints ? { data: largestTriangleThreeBuckets(data, maxPoints), downsampled: true } : { data };
}

/** A statement's `[[ms, value], …]` (in time order); values a double cannot hold (an overflowing sum) are left out. */
function bucketPoints(json: string): BucketPoint[] {
  const result: BucketPoint[] = [];
  for (const [ms, value] of JSON.parse(json) as [number | string, unknown][]) {
    if (typeof value === 'number' && Number.isFinite(value)) result.push([Number(ms), value]);
  }
  return result;
}

/**
 * A series' bucket points as the answer's points. A compared series' points are moved onto the
 * chart's range (`onChart`) and keep the instant they were measured for (`source_ts`).
 */
function points(buckets: BucketPoint[] | undefined, onChart?: (at: number) => number): KpiPoint[] {
  return (buckets ?? []).map(([at, value]) => (onChart
    ? { ts: new Date(onChart(at)).toISOString(), value, source_ts: new Date(at).toISOString() }
    : { ts: new Date(at).toISOString(), value }));
}

/** The points an answer holds (what the answer cache counts). */
export const answerPoints = (answer: KpiDataAnswer) => answer.series.reduce((total, series) => total + series.data.length, 0);
