import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { parse } from 'yaml';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/**
 * The conformance scenarios (and single checks) the suite is told cannot apply here
 * (test/conformance/expected-failures-*.yaml) are the ones docs/protocol.md lists with why.
 */
it.each([
  '2025-11-25',
  '2026-07-28',
])('docs/protocol.md names every scenario %s expects to fail', (revision) => {
  const baseline = parse(read(`test/conformance/expected-failures-${revision}.yaml`)) as { server: string[] };
  const docs = read('docs/protocol.md');
  expect(baseline.server.length).toBeGreaterThan(0);
  for (const entry of baseline.server) {
    const [scenario = '', check] = entry.split(':');
    expect(docs, entry).toContain(`\`${check ?? scenario}\``);
    if (check !== undefined) expect(docs, entry).toContain(`\`${scenario}\``);
  }
});
