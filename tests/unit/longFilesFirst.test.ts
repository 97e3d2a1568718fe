// The files started first by name (tests/support/longFilesFirst.ts) must still exist under that
// name, or a renamed one would quietly go back to starting last.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { LONG_FILES } from '../support/longFilesFirst.ts';

it.each(LONG_FILES)('%s exists', (file) => {
  expect(existsSync(join(import.meta.dirname, '..', '..', file))).toBe(true);
});
