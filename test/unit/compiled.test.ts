import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIfStale } from '../../scripts/compiled.js';

/** When `npm run ingest` compiles src/ again: only after a source or a setting changed. */
describe('buildIfStale', () => {
  let root: string;
  let builds: number;
  const build = () => {
    builds++;
  };
  const at = (relative: string, seconds: number) => utimesSync(path.join(root, relative), seconds, seconds);
  /** Sources and settings last changed at `seconds`. */
  const inputsAt = (seconds: number) => {
    for (const input of ['src/entry.ts', 'src', 'tsconfig.build.json']) at(input, seconds);
  };

  beforeEach(() => {
    builds = 0;
    root = mkdtempSync(path.join(tmpdir(), 'compiled-'));
    mkdirSync(path.join(root, 'src'));
    mkdirSync(path.join(root, 'dist'));
    writeFileSync(path.join(root, 'src', 'entry.ts'), 'export const answer = 42;\n');
    writeFileSync(path.join(root, 'tsconfig.build.json'), '{}');
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds when nothing was built, then not until something changes', () => {
    buildIfStale(root, build);
    expect(builds).toBe(1);
    inputsAt(1_000_000_000);
    at('dist/.built', 1_500_000_000);
    buildIfStale(root, build);
    expect(builds).toBe(1);
  });

  it.each([
    ['a source is edited', 'src/entry.ts'],
    ['a source is added or removed', 'src'],
    ['a TypeScript setting changes', 'tsconfig.build.json'],
  ])('builds again when %s', (_, changed) => {
    buildIfStale(root, build);
    inputsAt(1_000_000_000);
    at('dist/.built', 1_500_000_000);
    at(changed, 1_600_000_000);
    buildIfStale(root, build);
    expect(builds).toBe(2);
  });
});
