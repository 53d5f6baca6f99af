import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIfStale } from '../../scripts/compiled.js';

/** A project of one source file, built as `npm run ingest` builds the real one. */
describe('buildIfStale', () => {
  let root: string;
  const source = () => path.join(root, 'src', 'entry.ts');
  const output = () => path.join(root, 'dist', 'entry.js');
  const marker = () => path.join(root, 'dist', '.built');
  const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'compiled-'));
    mkdirSync(path.join(root, 'src'));
    writeFileSync(source(), 'export const answer: number = 42;\n');
    writeFileSync(
      path.join(root, 'tsconfig.build.json'),
      JSON.stringify({
        compilerOptions: { rootDir: 'src', outDir: 'dist', module: 'nodenext', target: 'es2022' },
      }),
    );
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds when nothing was built, and again only once a source changes', () => {
    buildIfStale(root);
    expect(existsSync(output())).toBe(true);
    expect(existsSync(marker())).toBe(true);

    rmSync(output());
    at(marker(), 2_000_000_000);
    at(source(), 1_000_000_000);
    at(path.join(root, 'src'), 1_000_000_000);
    buildIfStale(root);
    expect(existsSync(output())).toBe(false);

    at(source(), 2_000_000_001);
    buildIfStale(root);
    expect(existsSync(output())).toBe(true);
  });

  it('builds when a source was added or removed, or a TypeScript setting changed', () => {
    buildIfStale(root);
    at(marker(), 2_000_000_000);
    rmSync(output());
    at(path.join(root, 'src'), 2_000_000_001);
    buildIfStale(root);
    expect(existsSync(output())).toBe(true);

    at(marker(), 2_000_000_100);
    rmSync(output());
    at(path.join(root, 'tsconfig.build.json'), 2_000_000_101);
    buildIfStale(root);
    expect(existsSync(output())).toBe(true);
  });
});
