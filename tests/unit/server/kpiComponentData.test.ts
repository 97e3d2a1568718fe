// The bounds of a public-API component answer's KPI data (server/telemetry/kpiComponentData.ts):
// each KPI computed once per answer (and once for a user's answers within 2 s), a byte budget, the
// gate its lists are answered through, and a failure said in the component's place. The KPI reads are stand-ins that
// count their calls; the real doors are tested in tests/api/componentData.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { ApiError, GENERIC_ERROR } from '../../../server/errors.ts';
import type { ResourceService } from '../../../server/resources/resourceService.ts';
import type { Caller } from '../../../server/auth/caller.ts';
import { COMPUTING_AT_ONCE, DATA_OMITTED, KPI_DATA_FAILED, REUSED_MS, kpiComponentData } from '../../../server/telemetry/kpiComponentData.ts';
import type { KpiDataService } from '../../../server/telemetry/kpiData.ts';

const caller = { tenantId: 't', userId: 1 } as unknown as Caller;
const kpiComponent = (id: number, kpiId: number) => ({ id, type: 'kpi', definition: { kpi_id: kpiId } });

function services(series: (id: number) => Promise<unknown>) {
  // `kpis`: statements reading KPIs (an answer's KPIs are read together)
  const reads = { kpis: 0, series: 0, computing: 0, mostAtOnce: 0 };
  const kpiOf = (id: number) => ({ id, query: [{ key: `k${id}` }] });
  const resources = {
    get: vi.fn(async (_caller: Caller, _model: string, id: number) => { reads.kpis++; return kpiOf(id); }),
    getMany: vi.fn(async (_caller: Caller, _model: string, ids: number[]) => { reads.kpis++; return new Map(ids.map((id) => [id, kpiOf(id)])); }),
  };
  const kpiData = {
    series: vi.fn(async (_caller: Caller, request: { id: number }) => {
      reads.series++;
      reads.mostAtOnce = Math.max(reads.mostAtOnce, ++reads.computing);
      try {
        return await series(request.id);
      } finally {
        reads.computing--;
      }
    }),
  };
  return { reads, resources: resources as unknown as ResourceService, kpiData: kpiData as unknown as KpiDataService };
}

describe('kpiComponentData', () => {
  it('computes each KPI once however many components name it, and leaves other types without data', async () => {
    const { reads, resources, kpiData } = services(async (id) => ({ id, series: [] }));
    const records: Record<string, unknown>[] = [...Array.from({ length: 60 }, (_, n) => kpiComponent(n, 7)), kpiComponent(60, 8), { id: 61, type: 'richtext' }];
    await kpiComponentData(resources, kpiData)(caller, records);
    expect(reads).toMatchObject({ kpis: 1, series: 2 });
    expect(records[59]).toMatchObject({ query: [{ key: 'k7' }], data: { id: 7 }, data_error: null });
    expect(records[60]).toMatchObject({ data: { id: 8 } });
    expect(records[61]).toMatchObject({ query: null, data: null, data_error: null });
  });

  it('reuses a user\'s KPI data for their answers within 2 s, never another user\'s', async () => {
    const { reads, resources, kpiData } = services(async (id) => ({ id }));
    const clock = { now: 0 };
    const complete = kpiComponentData(resources, kpiData, { now: () => clock.now });
    const other = { tenantId: 't', userId: 2 } as unknown as Caller;
    for (let n = 0; n < 100; n++) await complete(caller, [kpiComponent(n, 7)]);
    expect(reads.series).toBe(1);
    await complete(other, [kpiComponent(1, 7)]);
    expect(reads.series).toBe(2);
    clock.now = REUSED_MS;
    await complete(caller, [kpiComponent(1, 7)]);
    expect(reads.series).toBe(3);
    // the KPI is read afresh each time: a KPI the user may no longer read gives nothing kept
    expect(reads.kpis).toBe(102);
  });

  it('computes again after a failure', async () => {
    let failing = true;
    const { reads, resources, kpiData } = services(async (id) => {
      if (failing) throw new Error('the database went away for a moment');
      return { id };
    });
    const complete = kpiComponentData(resources, kpiData, { onError: () => {} });
    const first = [kpiComponent(1, 7)] as Record<string, unknown>[];
    await complete(caller, first);
    expect(first[0]).toMatchObject({ data: null, data_error: { code: KPI_DATA_FAILED } });
    failing = false;
    const second = [kpiComponent(1, 7)] as Record<string, unknown>[];
    await complete(caller, second);
    expect(second[0]).toMatchObject({ data: { id: 7 }, data_error: null });
    expect(reads.series).toBe(2);
  });

  it('carries data up to its byte budget; past it a component says its data was left out and no more KPIs are computed', async () => {
    const { reads, resources, kpiData } = services(async (id) => ({ id, padding: 'x'.repeat(400) }));
    const records: Record<string, unknown>[] = [kpiComponent(1, 1), kpiComponent(2, 1), kpiComponent(3, 2), kpiComponent(4, 3)];
    await kpiComponentData(resources, kpiData, { maxBytes: 1_000 })(caller, records);
    expect(records.map((record) => (record.data as { id: number } | null)?.id ?? null)).toEqual([1, 1, null, null]);
    expect(records[2]).toMatchObject({ query: [{ key: 'k2' }], data_error: { code: DATA_OMITTED } });
    expect(records[3]).toMatchObject({ query: [{ key: 'k3' }], data_error: { code: DATA_OMITTED } });
    expect(reads.series).toBe(2); // KPI 3 was not computed: the answer was already full
  });

  it('gives its lists a gate of two (the resource service answers them through it), the others waiting their turn', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const { reads, resources, kpiData } = services(async (id) => { await held; return { id }; });
    const complete = kpiComponentData(resources, kpiData);
    expect(complete.gate).toBeDefined();
    const answers = Array.from({ length: 5 }, (_, n) => complete.gate!.run(() => complete(caller, [kpiComponent(n, n)])));
    await vi.waitFor(() => expect(reads.series).toBe(COMPUTING_AT_ONCE));
    expect(complete.gate!.waiting()).toBe(5 - COMPUTING_AT_ONCE);
    release();
    await Promise.all(answers);
    expect(reads).toMatchObject({ series: 5, mostAtOnce: COMPUTING_AT_ONCE });
  });

  it('carries the first component\'s data whatever its size', async () => {
    const { resources, kpiData } = services(async (id) => ({ id, padding: 'x'.repeat(5_000) }));
    const records: Record<string, unknown>[] = [kpiComponent(1, 1), kpiComponent(2, 2)];
    await kpiComponentData(resources, kpiData, { maxBytes: 1_000 })(caller, records);
    expect(records[0]).toMatchObject({ data: { id: 1 }, data_error: null });
    expect(records[1]).toMatchObject({ data: null, data_error: { code: DATA_OMITTED } });
  });

  it('says in the component why its data failed: a refusal in its own words, anything else in general words (reported)', async () => {
    const { resources, kpiData } = services(async (id) => {
      if (id === 1) throw new ApiError(404, 'NO_KPI_DATA', 'No KPI data found');
      if (id === 2) throw new Error('relation "secret_table" does not exist');
      return { id };
    });
    const onError = vi.fn();
    const records: Record<string, unknown>[] = [kpiComponent(1, 1), kpiComponent(2, 2), kpiComponent(3, 3)];
    await kpiComponentData(resources, kpiData, { onError })(caller, records);
    expect(records[0]).toMatchObject({ data: null, data_error: { code: 'NO_KPI_DATA', message: 'No KPI data found' } });
    expect(records[1]).toMatchObject({ data: null, data_error: { code: KPI_DATA_FAILED, message: GENERIC_ERROR } });
    expect(records[2]).toMatchObject({ data: { id: 3 }, data_error: null });
    expect(onError).toHaveBeenCalledOnce();
  });

  it('fails the whole answer when the database is away', async () => {
    const { resources, kpiData } = services(async () => { throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }); });
    await expect(kpiComponentData(resources, kpiData)(caller, [kpiComponent(1, 1)])).rejects.toThrow('ECONNREFUSED');
  });
});
