import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PendingRefunds, type RefundRecord } from '../../src/stores/pending-refunds.js';
import { recordingLogger } from '../support/test-server.js';

/** No process runs with this pid: Linux pids stay below 2^22. */
const GONE_PID = 2 ** 30;

const refund = (charge: string): RefundRecord => ({
  counter: 'acc_1:lead_explores:2026-11-25',
  charge,
  units: null,
});

describe('PendingRefunds', () => {
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'pending-refunds-test-'));
  });

  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  /** A file left by a process of `database` on `host` with `pid`, as one writes it. */
  const leftover = (
    name: string,
    header: { database: string; host: string; pid: number },
    charges: string[],
  ) =>
    writeFileSync(
      path.join(folder, name),
      [header, ...charges.map(refund)].map((line) => JSON.stringify(line)).join('\n'),
    );

  it('keeps refunds in a file of its own until every one has landed, then removes it', () => {
    const refunds = new PendingRefunds(folder, 'db', recordingLogger().logger);
    const [first, second] = refunds.keep([refund('a'), refund('b')]) as [() => void, () => void];
    const [file] = readdirSync(folder);
    const lines = readFileSync(path.join(folder, file as string), 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { database: 'db', host: hostname(), pid: process.pid },
      refund('a'),
      refund('b'),
    ]);
    first();
    first();
    expect(readdirSync(folder)).toHaveLength(1);
    second();
    expect(readdirSync(folder)).toEqual([]);
  });

  it("adopts what dead processes of its database and host left, and leaves live processes', other hosts' and other databases' files", () => {
    const host = hostname();
    leftover('refunds-1-aaaa.jsonl', { database: 'db', host, pid: GONE_PID }, ['dead-1', 'dead-2']);
    // The same pid as this process, another instance: a predecessor (a container restarts with the same pid).
    leftover('refunds-2-bbbb.jsonl', { database: 'db', host, pid: process.pid }, ['predecessor']);
    leftover('refunds-3-cccc.jsonl', { database: 'db', host, pid: process.ppid }, ['alive']);
    leftover('refunds-4-dddd.jsonl', { database: 'other', host, pid: GONE_PID }, ['other-database']);
    leftover('refunds-5-eeee.jsonl', { database: 'db', host: `${host}-elsewhere`, pid: GONE_PID }, [
      'other-host',
    ]);
    // A line cut short by a crash is skipped; the rest of its file counts.
    writeFileSync(path.join(folder, 'refunds-1-aaaa.jsonl'), '\n{"counter":"acc_1:lead', { flag: 'a' });

    const refunds = new PendingRefunds(folder, 'db', recordingLogger().logger);
    const adopted = refunds.adoptLeftovers();
    expect(adopted.map(({ record }) => record.charge).sort()).toEqual(['dead-1', 'dead-2', 'predecessor']);
    const left = readdirSync(folder).sort();
    const others = ['refunds-3-cccc.jsonl', 'refunds-4-dddd.jsonl', 'refunds-5-eeee.jsonl'];
    expect(left.filter((name) => !name.startsWith(`refunds-${process.pid}-`))).toEqual(others);
    // Adopted refunds are this process's own now: its file goes once they have landed.
    expect(left).toHaveLength(4);
    for (const { landed } of adopted) landed();
    expect(readdirSync(folder).sort()).toEqual([
      'refunds-3-cccc.jsonl',
      'refunds-4-dddd.jsonl',
      'refunds-5-eeee.jsonl',
    ]);
  });

  it('still makes refunds it cannot write down, and says so', () => {
    const log = recordingLogger();
    const unwritable = path.join(folder, 'not-a-folder');
    writeFileSync(unwritable, '');
    const refunds = new PendingRefunds(unwritable, 'db', log.logger);
    const landed = refunds.keep([refund('a')]);
    expect(landed).toHaveLength(1);
    expect(log.entries.map((entry) => entry.level)).toEqual(['error']);
  });

  it('neither writes to nor takes refunds over from a folder others can write to', () => {
    // Another local user could otherwise plant refund records, or read the charges owed.
    const log = recordingLogger();
    leftover('refunds-1-aaaa.jsonl', { database: 'db', host: hostname(), pid: GONE_PID }, ['planted']);
    chmodSync(folder, 0o777);
    const refunds = new PendingRefunds(folder, 'db', log.logger);
    expect(refunds.adoptLeftovers()).toEqual([]);
    expect(refunds.keep([refund('a')])).toHaveLength(1);
    expect(readdirSync(folder)).toEqual(['refunds-1-aaaa.jsonl']);
    expect(log.entries.map((entry) => entry.level)).toEqual(['error', 'error']);
  });
});
