import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PINNED_PACKAGES, withClientSetupsSection } from '../../scripts/clients/setups.js';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('the client setups', () => {
  it('in README.md are what `npm run docs` renders from scripts/clients/setups.ts', () => {
    const readme = read('README.md');
    expect(readme, 'README.md is stale: run `npm run docs` and commit the result').toBe(
      withClientSetupsSection(readme),
    );
  });

  it('pin the npm packages the project tests with at the versions it has', () => {
    const { devDependencies } = JSON.parse(read('package.json')) as {
      devDependencies: Record<string, string>;
    };
    const npmPackages = [PINNED_PACKAGES.inspector, PINNED_PACKAGES.mcpRemote];
    const installed = npmPackages.filter((pinned) => devDependencies[pinned.name] !== undefined);
    expect(installed.map((pinned) => pinned.name)).toContain('mcp-remote');
    for (const pinned of installed) expect(devDependencies[pinned.name], pinned.name).toBe(pinned.version);
  });
});
