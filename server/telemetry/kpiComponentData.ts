// A public-API KPI component's answer carries its KPI's stored query and current data (GET
// /kpi-data's computation, in UTC): an API client draws it without the KPI doors, which the public
// API does not offer. Nothing else of the KPI is told, and a KPI that is gone leaves both null.
//
// What one answer may cost is bounded. The answer's KPIs are read in one statement; each is
// computed once per answer however many components name it, and once for a user's answers within
// REUSED_MS (and, through the shared KPI answers, once per refresh interval for all readers alike).
// The data an answer carries stops at MAX_COMPONENT_DATA_BYTES: the components past it say so in
// `data_error` and a smaller page carries theirs (the first component's data goes whatever its
// size, which the KPI limits bound). Only COMPUTING_AT_ONCE lists are read, completed and made JSON
// at a time in the whole process (the completion's `gate`, which the resource service runs them
// through); the others wait their turn holding nothing. A component whose data cannot be computed
// says why in its place and never fails the list; only the database's absence does.
import { MAX_POINTS_PER_SERIES, type KpiDataAnswer } from '../../src/schemas/kpiDataQuery.ts';
import { isDatabaseUnavailable } from '../db/databaseErrors.ts';
import { ApiError, GENERIC_ERROR } from '../errors.ts';
import { admissionGate, type AdmissionGate } from '../admissionGate.ts';
import { preparedJson } from '../resources/preparedJson.ts';
import type { AnswerCompletion, ResourceService } from '../resources/resourceService.ts';
import type { Caller } from '../auth/caller.ts';
import type { KpiDataService } from './kpiData.ts';

/** KPI data one component list carries, at most (characters of its JSON). */
export const MAX_COMPONENT_DATA_BYTES = 2 * 1024 * 1024;
/** Component lists answered at once (read, completed, made JSON), in the whole process. */
export const COMPUTING_AT_ONCE = 2;
/** How long a user's KPI data, once computed for an answer, serves their next answers (ms): a hundred readers of one board compute it once. */
export const REUSED_MS = 2_000;
/** Computed KPI data kept for reuse, at most (the oldest goes first). */
const REUSED_ENTRIES = 32;

export const DATA_OMITTED = 'DATA_OMITTED';
export const DATA_OMITTED_MESSAGE = 'Data left out: this answer already carries as much KPI data as one answer may. Ask for fewer components (page, per_page).';
export const KPI_DATA_FAILED = 'KPI_DATA_FAILED';

interface DataError { code: string; message: string }
/** A component past the answer's budget. */
const OMITTED: DataError = { code: DATA_OMITTED, message: DATA_OMITTED_MESSAGE };
/** A KPI as one answer computed it: its query, and its data with its size or why there is none. */
interface ComputedKpi { query: unknown; data: KpiDataAnswer | null; bytes: number; error: DataError | null }

export interface KpiComponentDataOptions {
  /** The lists' gate, shared by every answer of the process (tests give their own). */
  gate?: AdmissionGate;
  /** The clock of reuse (tests). */
  now?: () => number;
  maxBytes?: number;
  /** A computation that failed for a reason of the server's (logged; the component says only GENERIC_ERROR). */
  onError?(error: unknown): void;
}

const kpiIdOf = (record: Record<string, unknown>): number | undefined =>
  record.type === 'kpi' ? (record.definition as { kpi_id?: number } | undefined)?.kpi_id : undefined;

export function kpiComponentData(resources: ResourceService, kpiData: KpiDataService, options: KpiComponentDataOptions = {}): AnswerCompletion {
  const { gate = admissionGate(COMPUTING_AT_ONCE), maxBytes = MAX_COMPONENT_DATA_BYTES, now = Date.now } = options;
  /** A user's KPI data lately computed (or being computed), by tenant, user and KPI: computed once for many answers. */
  const reused = new Map<string, { at: number; data: Promise<{ data: KpiDataAnswer; bytes: number }> }>();
  /** The size of an answer's JSON, made once: answers are shared by callers alike, and every list carries the text as it is. */
  const bytesOf = (answer: KpiDataAnswer) => preparedJson(answer).length;

  /** The KPI's data as the caller reads it: computed, or the one computed for them in the last REUSED_MS. */
  function dataOf(caller: Caller, kpiId: number): Promise<{ data: KpiDataAnswer; bytes: number }> {
    const key = `${caller.tenantId}:${caller.userId}:${kpiId}`;
    const at = now();
    const kept = reused.get(key);
    if (kept && at - kept.at < REUSED_MS) return kept.data;
    const data = kpiData.series(caller, { id: kpiId, timezone: 'UTC', max_points: MAX_POINTS_PER_SERIES })
      .then((answer) => ({ data: answer, bytes: bytesOf(answer) }));
    reused.delete(key);
    reused.set(key, { at, data });
    data.catch(() => reused.delete(key)); // a failure is not kept
    for (const [oldest] of reused) {
      if (reused.size <= REUSED_ENTRIES) break;
      reused.delete(oldest);
    }
    return data;
  }

  /** Why a read failed, for the component; the database's absence fails the whole answer. */
  const problemOf = (error: unknown): DataError => {
    if (isDatabaseUnavailable(error)) throw error;
    if (error instanceof ApiError && error.statusCode < 500) return { code: error.items[0].code, message: error.message };
    options.onError?.(error);
    return { code: KPI_DATA_FAILED, message: GENERIC_ERROR };
  };

  /**
   * A KPI's query and, while the answer has room (`withData`), its data. `read`: the answer's KPIs,
   * read together; one not among them is asked alone, for the reason it cannot be read (both null).
   */
  async function compute(caller: Caller, kpiId: number, withData: boolean, read: Map<number, Record<string, unknown>>): Promise<ComputedKpi> {
    let kpi;
    try {
      kpi = read.get(kpiId) ?? await resources.get(caller, 'kpi', kpiId);
    } catch (error) {
      return { query: null, data: null, bytes: 0, error: problemOf(error) };
    }
    const query = kpi.query ?? null;
    if (!withData) return { query, data: null, bytes: 0, error: OMITTED };
    try {
      const { data, bytes } = await dataOf(caller, kpiId);
      return { query, data, bytes, error: null };
    } catch (error) {
      return { query, data: null, bytes: 0, error: problemOf(error) };
    }
  }

  const complete: AnswerCompletion = async (caller, records) => {
    for (const record of records) Object.assign(record, { query: null, data: null, data_error: null });
    const kpiRecords = records.filter((record) => kpiIdOf(record) !== undefined);
    if (kpiRecords.length === 0) return;
    const computed = new Map<number, ComputedKpi>();
    // one statement for the answer's KPIs (what fails here is asked again one by one, for its reason)
    const read = await resources.getMany(caller, 'kpi', [...new Set(kpiRecords.map((record) => kpiIdOf(record)!))]).catch(() => new Map<number, Record<string, unknown>>());
    let carried = 0;
    /** A component was left without its data: the answer is full, no more KPIs are computed. */
    let full = false;
    for (const record of kpiRecords) {
      const kpiId = kpiIdOf(record)!;
      let kpi = computed.get(kpiId);
      if (!kpi) {
        kpi = await compute(caller, kpiId, !full, read);
        computed.set(kpiId, kpi);
      }
      record.query = kpi.query;
      if (kpi.data && carried > 0 && carried + kpi.bytes > maxBytes) {
        full = true;
        record.data_error = OMITTED;
        continue;
      }
      record.data = kpi.data;
      record.data_error = kpi.error;
      carried += kpi.bytes;
    }
  };
  complete.gate = gate;
  return complete;
}
