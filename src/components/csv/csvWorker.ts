// A module Web Worker that reads a CSV file off the page's thread (readCsvFile.ts sends it the
// large ones): it takes a File and answers with the same ParsedCsv the page would compute.
import { parseCsv, type ParsedCsv } from './parseCsv.ts';

export type CsvWorkerAnswer = { csv: ParsedCsv } | { failed: true };

export async function answerCsvFile(file: Blob): Promise<CsvWorkerAnswer> {
  try {
    return { csv: parseCsv(await file.text()) };
  } catch {
    return { failed: true };
  }
}

self.onmessage = async (event: MessageEvent<Blob>) => {
  self.postMessage(await answerCsvFile(event.data));
};
