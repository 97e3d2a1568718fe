// A chosen CSV file as the importers take it (SPEC §5): under 2 MB, read (off the page's thread
// when large) while `reading` is true, and refused with its messages when it cannot be read or
// its rows are malformed. What the rows must contain is each importer's own check.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CSV_UPLOAD_MAX_BYTES } from '../../schemas/deviceOperations.ts';
import type { ParsedCsv } from './parseCsv.ts';
import { readCsvFile } from './readCsvFile.ts';

/** At most this many problems of one file are listed. */
const LISTED_PROBLEMS = 50;

export function useCsvFile() {
  const { t } = useTranslation();
  const [reading, setReading] = useState(false);

  const read = async (file: File): Promise<{ csv: ParsedCsv; problems?: never } | { problems: string[] }> => {
    if (file.size >= CSV_UPLOAD_MAX_BYTES) return { problems: [t('upload.tooLarge')] };
    setReading(true);
    try {
      const csv = await readCsvFile(file);
      if (!csv.problems.length) return { csv };
      return { problems: csv.problems.slice(0, LISTED_PROBLEMS).map(({ key, ...values }) => t(`csv.${key}`, values)) };
    } catch {
      return { problems: [t('csv.readFailed')] };
    } finally {
      setReading(false);
    }
  };

  return { reading, read };
}
