// Reads a chosen CSV file into a ParsedCsv: a small file on the page's thread, a large one in
// our module worker (csvWorker.ts) so the page stays responsive while papaparse works. Both
// paths run the same parseCsv and give the same result.
import type { CsvWorkerAnswer } from './csvWorker.ts';
import { parseCsv, type ParsedCsv } from './parseCsv.ts';

/**
 * From this size on the worker reads the file. papaparse reads 256 kB in ~20 ms on a slow,
 * busy machine (a frame or so, about what starting the worker costs); the largest file the
 * importers take (2 MB) needs ~170 ms there, long enough to freeze the page's progress.
 */
export const CSV_WORKER_MIN_BYTES = 256 * 1024;

function readInWorker(file: Blob): Promise<ParsedCsv> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./csvWorker.ts', import.meta.url), { type: 'module' });
    const finish = (answer: CsvWorkerAnswer | undefined) => {
      worker.terminate();
      if (answer && 'csv' in answer) resolve(answer.csv);
      else reject(new Error('The CSV worker could not read the file'));
    };
    worker.onmessage = (event: MessageEvent<CsvWorkerAnswer>) => finish(event.data);
    worker.onerror = () => finish(undefined);
    worker.onmessageerror = () => finish(undefined);
    worker.postMessage(file);
  });
}

export async function readCsvFile(file: Blob): Promise<ParsedCsv> {
  return file.size >= CSV_WORKER_MIN_BYTES ? readInWorker(file) : parseCsv(await file.text());
}
