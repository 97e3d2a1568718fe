// A chosen CSV file is read on the page when small and in the module worker when large, with the
// same result; the importers' hook turns the size limit, an unreadable file and malformed rows
// into translated messages.
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { answerCsvFile } from '../../../src/components/csv/csvWorker.ts';
import { parseCsv } from '../../../src/components/csv/parseCsv.ts';
import { CSV_WORKER_MIN_BYTES, readCsvFile } from '../../../src/components/csv/readCsvFile.ts';
import { useCsvFile } from '../../../src/components/csv/useCsvFile.ts';
import { i18n, setUpI18n } from '../../../src/i18n/i18n.ts';
import { CSV_UPLOAD_MAX_BYTES } from '../../../src/schemas/deviceOperations.ts';

/** Stands in for the browser's Worker: runs the worker module's own answer in this thread. */
class WorkerInThisThread {
  static started: WorkerInThisThread[] = [];
  static failing = false;
  url: string;
  options: WorkerOptions | undefined;
  terminated = false;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  onmessageerror: ((event: MessageEvent) => void) | null = null;
  constructor(url: URL | string, options?: WorkerOptions) {
    this.url = String(url);
    this.options = options;
    WorkerInThisThread.started.push(this);
  }
  postMessage(file: Blob) {
    if (WorkerInThisThread.failing) setTimeout(() => this.onerror?.(new ErrorEvent('error')));
    else void answerCsvFile(file).then((data) => this.onmessage?.(new MessageEvent('message', { data })));
  }
  terminate() {
    this.terminated = true;
  }
}

/** A telemetry file of about `bytes`, with quoted notes holding separators, quotes and line breaks. */
function telemetryCsv(bytes: number): string {
  let text = '\uFEFFts,Temperature,note\r\n';
  for (let index = 0; text.length < bytes; index++) {
    text += `${1767225600000 + index * 60_000},${(20 + (index % 50) / 10).toFixed(1)},"sensor ${index}, ""north"" side\r\nsecond line"\r\n`;
  }
  return text;
}

const fileOf = (text: string, name = 'telemetry.csv') => new File([text], name, { type: 'text/csv' });

beforeAll(() => {
  setUpI18n('facility');
  void i18n.changeLanguage('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  WorkerInThisThread.started = [];
  WorkerInThisThread.failing = false;
});

describe('readCsvFile', () => {
  it('reads a small file on the page', async () => {
    vi.stubGlobal('Worker', WorkerInThisThread);
    const text = telemetryCsv(10_000);
    expect(await readCsvFile(fileOf(text))).toEqual(parseCsv(text));
    expect(WorkerInThisThread.started).toEqual([]);
  });

  it('reads a large file in the module worker, with the same result, and ends the worker', async () => {
    vi.stubGlobal('Worker', WorkerInThisThread);
    const text = telemetryCsv(CSV_WORKER_MIN_BYTES + 1000);
    const csv = await readCsvFile(fileOf(text));
    expect(csv).toEqual(parseCsv(text));
    expect(csv.rows.length).toBeGreaterThan(2000);
    expect(csv.rows[1]).toEqual(['1767225660000', '20.1', 'sensor 1, "north" side\nsecond line']);
    expect(csv.problems).toEqual([]);
    const [worker] = WorkerInThisThread.started;
    expect(worker.url).toMatch(/\/csvWorker\.ts\b/);
    expect(worker.options).toEqual({ type: 'module' });
    expect(worker.terminated).toBe(true);
  });

  it('fails when the worker cannot run', async () => {
    vi.stubGlobal('Worker', WorkerInThisThread);
    WorkerInThisThread.failing = true;
    await expect(readCsvFile(fileOf(telemetryCsv(CSV_WORKER_MIN_BYTES)))).rejects.toThrow();
    expect(WorkerInThisThread.started[0].terminated).toBe(true);
  });
});

describe('useCsvFile', () => {
  const chooseFile = async (file: File) => {
    const { result } = renderHook(() => useCsvFile());
    let answer: Awaited<ReturnType<typeof result.current.read>> | undefined;
    await act(async () => {
      answer = await result.current.read(file);
    });
    expect(result.current.reading).toBe(false);
    return answer!;
  };

  it('gives the file\'s rows', async () => {
    expect(await chooseFile(fileOf('ts,Temperature\n1767225600000,21.5\n'))).toEqual({ csv: { header: ['ts', 'Temperature'], rows: [['1767225600000', '21.5']], problems: [] } });
  });

  it('refuses a file of 2 MB or more without reading it', async () => {
    const huge = fileOf('a'.repeat(CSV_UPLOAD_MAX_BYTES));
    const text = vi.spyOn(huge, 'text');
    expect(await chooseFile(huge)).toEqual({ problems: ['The file must be under 2 MB.'] });
    expect(text).not.toHaveBeenCalled();
  });

  it('lists the malformed rows', async () => {
    expect(await chooseFile(fileOf('ts,Temperature\n1,2\n3\n4,"5\n'))).toEqual({
      problems: [
        'Row 2: the number of values (1) differs from the number of columns in the header (2).',
        'Row 3: a quoted value is not closed properly.',
      ],
    });
  });

  it('says so when the file cannot be read', async () => {
    const unreadable = fileOf('ts\n1\n');
    vi.spyOn(unreadable, 'text').mockRejectedValue(new DOMException('The file was removed', 'NotReadableError'));
    expect(await chooseFile(unreadable)).toEqual({ problems: ['The file could not be read. Choose it again.'] });
  });
});
