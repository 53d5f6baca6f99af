import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  copiedPaths,
  execForm,
  finalStage,
  healthcheckCommand,
  instructions,
  onlyInstruction,
  readDockerfile,
} from '../../scripts/dockerfile.js';
import { projectRoot } from '../../scripts/stack/settings.js';

const stages = readDockerfile();
const runtime = finalStage(stages);

/** The Node 24 release `.ci/run` runs the suite on a second time. */
function ciNode24Version(): string {
  const script = readFileSync(path.join(projectRoot, '.ci/run'), 'utf8');
  const version = /^node24_version=(24\.\d+\.\d+)$/m.exec(script)?.[1];
  if (!version) throw new Error('.ci/run pins no node24_version=24.x.y');
  return version;
}

describe('Dockerfile', () => {
  it('builds and runs on the official Node 24 slim image, pinned to the minor release CI tests on', () => {
    const [major, minor] = ciNode24Version().split('.');
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.image).toBe(`node:${major}.${minor}-slim`);
  });

  it('compiles in a build stage and copies only package.json, its lock and dist/ into the image', () => {
    const copied = copiedPaths(runtime).map(({ fromStage, source, destination }) => ({
      from: fromStage ?? 'context',
      source: fromStage ? path.posix.basename(source) : source,
      destination,
    }));
    expect(copied).toEqual([
      { from: 'context', source: 'package.json', destination: 'package.json' },
      { from: 'context', source: 'package-lock.json', destination: 'package-lock.json' },
      { from: 'build', source: 'dist', destination: 'dist' },
    ]);
    expect(instructions(runtime, 'ADD')).toEqual([]);
  });

  it('puts no development code or TypeScript runner in the image', () => {
    const development = /(^|[\s/"'])(src|scripts|test|seed|bench)(\/|\s|$)|\btsx\b|\bnpx\b|\.ts\b/;
    for (const instruction of runtime.instructions) {
      expect(`${instruction.keyword} ${instruction.rest}`).not.toMatch(development);
      for (const value of Object.values(instruction.flags)) expect(value).not.toMatch(development);
    }
  });

  it('installs the production dependencies only, with the lock', () => {
    const runs = instructions(runtime, 'RUN').map(({ rest }) => rest.split(/\s+/));
    expect(runs).toHaveLength(1);
    expect(runs[0]?.slice(0, 2)).toEqual(['npm', 'ci']);
    expect(runs[0]).toContain('--omit=dev');
  });

  it('runs as a user other than root', () => {
    expect(onlyInstruction(runtime, 'USER').rest).not.toMatch(/^(root|0)(:|$)/);
  });

  it('starts the compiled server with node and checks its health on /readyz', () => {
    expect(execForm(onlyInstruction(runtime, 'CMD').rest)).toEqual([
      'node',
      '--max-semi-space-size=16',
      '--max-old-space-size=384',
      'dist/main.js',
    ]);
    const healthcheck = healthcheckCommand(runtime);
    expect(healthcheck[0]).toBe('node');
    expect(healthcheck.join(' ')).toContain('/readyz');
  });

  it('starts the server as `npm start` does, with the same Node flags', () => {
    const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.start?.split(' ')).toEqual(execForm(onlyInstruction(runtime, 'CMD').rest));
  });
});
