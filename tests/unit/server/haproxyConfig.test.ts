// docs/operations.md shows the HAProxy configuration the cluster test runs (scripts/cluster.ts):
// the two stay the same, so that what the documentation recommends is what was tested.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { haproxyConfig } from '../../../scripts/cluster.ts';

it('docs/operations.md shows the configuration the cluster test runs, for three instances', () => {
  const docs = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'operations.md'), 'utf8');
  const shown = /```haproxy\n([\s\S]*?)```/.exec(docs)?.[1];
  const tested = haproxyConfig({
    httpBind: ':80', mqttBind: ':1883',
    instances: [1, 2, 3].map((n) => ({ name: `terrasight${n}`, host: `10.0.0.1${n}`, port: 3000, mqttPort: 1883 })),
  });
  expect(shown).toBe(tested);
});
