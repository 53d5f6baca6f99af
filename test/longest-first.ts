import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The integration files that take longest, longest first (measured: docs/testing.md, "Time").
 * Without vitest's cache of earlier durations, a fresh clone (CI) ordered files by size, and a
 * long file that started last kept the run going after the others had finished.
 */
const LONGEST = [
  'fuzz',
  'ingest',
  'access-tokens',
  'oauth-sign-out-browser',
  'rollups',
  'market-insights-view-browser',
  'oauth-browser',
  'oauth-client-shapes',
  'runtime-image',
  'seed',
  'python-examples',
  'market-insights-view',
];

const rank = (file: TestSpecification): number => {
  const index = LONGEST.findIndex((name) => file.moduleId.endsWith(`/${name}.test.ts`));
  return index === -1 ? LONGEST.length : index;
};

/** vitest's own order, but the files known to take longest first, in the order above. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((file, position) => ({ file, position }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.position - b.position)
      .map(({ file }) => file);
  }
}
