import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StackError } from '../../scripts/stack/errors.js';
import {
  jitOptions,
  mongodbUriFor,
  othersCanEnter,
  projectRoot,
  stackSettings,
} from '../../scripts/stack/settings.js';
import { readStackUrls, writeStackState } from '../../scripts/stack/state.js';

describe('stackSettings', () => {
  it('defaults to the usual ports, a 2g heap and .stack in the project (or /var/tmp for root in a private checkout)', () => {
    const privateToRoot = process.getuid?.() === 0 && !othersCanEnter(projectRoot);
    expect(stackSettings({})).toEqual({
      stackDir: privateToRoot
        ? expect.stringMatching(/^\/var\/tmp\/hiring-leads-stack-[0-9a-f]{12}$/)
        : path.join(projectRoot, '.stack'),
      esPort: 9200,
      esTransportPort: 9300,
      mongoPort: 27017,
      esHeap: '2g',
      jit: 'full',
    });
  });

  it('takes ports, heap and folder from the environment', () => {
    const settings = stackSettings({
      ES_PORT: '9400',
      MONGO_PORT: '27100',
      ES_HEAP: '512M',
      STACK_DIR: '/var/tmp/s',
      STACK_MODE: 'local',
      STACK_JIT: 'quick',
    });
    expect(settings).toMatchObject({
      esPort: 9400,
      esTransportPort: 9500,
      mongoPort: 27100,
      esHeap: '512m',
      stackDir: '/var/tmp/s',
      forcedMode: 'local',
      jit: 'quick',
    });
    expect(mongodbUriFor(settings)).toBe('mongodb://127.0.0.1:27100/?directConnection=true');
    expect(jitOptions(settings)).toEqual(['-XX:TieredStopAtLevel=1']);
    expect(jitOptions(stackSettings({}))).toEqual([]);
  });

  it('names the setting that is wrong', () => {
    expect(() => stackSettings({ ES_PORT: 'ninety' })).toThrow(StackError);
    expect(() => stackSettings({ MONGO_PORT: '70000' })).toThrow(/MONGO_PORT/);
    expect(() => stackSettings({ ES_HEAP: 'lots' })).toThrow(/ES_HEAP/);
    expect(() => stackSettings({ STACK_MODE: 'kubernetes' })).toThrow(/STACK_MODE/);
    expect(() => stackSettings({ STACK_JIT: 'fast' })).toThrow(/STACK_JIT/);
  });
});

describe('othersCanEnter', () => {
  it('is false under a private folder and true once every level lets others through', () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'stack-reach-'));
    const folder = mkdtempSync(path.join(parent, 'checkout-'));
    chmodSync(parent, 0o700);
    chmodSync(folder, 0o755);
    expect(othersCanEnter(folder)).toBe(false);
    chmodSync(parent, 0o755);
    expect(othersCanEnter(folder)).toBe(true);
    rmSync(parent, { recursive: true, force: true });
  });
});

describe('readStackUrls', () => {
  let stackDir: string | undefined;
  afterEach(() => {
    if (stackDir) rmSync(stackDir, { recursive: true, force: true });
  });

  it('returns the URLs stack:up recorded, and nothing when there is no usable state', () => {
    stackDir = mkdtempSync(path.join(tmpdir(), 'stack-state-'));
    expect(readStackUrls(stackDir)).toBeUndefined();

    writeFileSync(path.join(stackDir, 'state.json'), '{"mode":');
    expect(readStackUrls(stackDir)).toBeUndefined();

    writeStackState(stackDir, {
      mode: 'local',
      elasticsearchUrl: 'http://127.0.0.1:9200',
      mongodbUri: 'mongodb://127.0.0.1:27017/?directConnection=true',
      startedAt: '2026-01-01T00:00:00.000Z',
      pids: { elasticsearch: 1, mongo: 2 },
    });
    expect(readStackUrls(stackDir)).toEqual({
      elasticsearchUrl: 'http://127.0.0.1:9200',
      mongodbUri: 'mongodb://127.0.0.1:27017/?directConnection=true',
    });
  });
});
