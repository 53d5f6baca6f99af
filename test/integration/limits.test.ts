import { type ChildProcess, spawn } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minuteWindowStart, secondsToNextMinute } from '../../src/domain/calendar.js';
import type { LeadDoc } from '../../src/domain/documents.js';
import { tools } from '../../src/tools/registry.js';
import { compiledServerCommand, testEnv } from '../support/backends.js';
import { callToolRaw, toolError } from '../support/mcp-client.js';
import { seededLeads } from '../support/seeded-data.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

/** A free TCP port on 127.0.0.1, for a server process whose address we must know in advance. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The server (the run's compiled sources) as a separate process over this run's backends; resolves once it listens. */
async function startServerProcess(): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, compiledServerCommand().nodeArguments, {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...testEnv(),
      PORT: String(port),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`server process did not start:\n${log}`)), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('"msg":"listening"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}:\n${log}`)));
  });
  // Keep draining its log, or the pipe fills and the process stalls.
  child.stderr?.resume();
  return { url: `http://127.0.0.1:${port}/mcp`, process: child };
}

/**
 * Runs `burst` until one run starts and ends in the same UTC minute, so that every call of it counts
 * in one window of `calls_per_minute` on every process (they share the machine's clock). A burst takes
 * well under a second: one that straddles a minute boundary is run again at once, and the rerun,
 * starting just after the boundary, fits. No waiting for a window, and no test-only clock in the server.
 */
async function inOneMinuteWindow<T>(burst: () => Promise<T>) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const startedAt = new Date();
    const results = await burst();
    const endedAt = new Date();
    if (minuteWindowStart(startedAt).getTime() === minuteWindowStart(endedAt).getTime()) {
      return { results, startedAt, endedAt };
    }
  }
  throw new Error('three bursts in a row crossed a minute boundary: each took far longer than expected');
}

/**
 * Limits shared by every server process (docs/plans.md, "How counting works"): one in-process test
 * server and one separate `src/main.ts` process over the same MongoDB and Elasticsearch, both on the
 * real clock.
 */
describe('limits across two server processes', () => {
  let inProcess: TestServer;
  let separate: { url: string; process: ChildProcess };
  let urls: [string, string];
  let openLeads: LeadDoc[];

  beforeAll(async () => {
    [inProcess, separate] = await Promise.all([startTestServer({ tools }), startServerProcess()]);
    urls = [inProcess.url, separate.url];
    openLeads = (await seededLeads()).filter((lead) => lead.is_open);
  });

  afterAll(async () => {
    separate?.process.kill('SIGTERM');
    await inProcess?.close();
  });

  /** Calls alternate between the two processes and all start at once. */
  const fromBothProcesses = (count: number, call: (url: string, index: number) => Promise<CallToolResult>) =>
    Promise.all(Array.from({ length: count }, (_, index) => call(urls[index % 2] as string, index)));
  const errorCodes = (results: CallToolResult[]) =>
    results.filter((result) => result.isError).map((result) => toolError(result).code);

  it('the daily enrichments quota holds: 20 simultaneous enrichments against a quota of 5', async () => {
    const { key, account } = await createAccountWithKey(inProcess.services, { callsPerMinute: 10_000 });
    await inProcess.services.accounts.update(
      account._id,
      { credits_remaining: 100, quota_overrides: { enrichments: 5 } },
      new Date(),
    );
    const leads = openLeads.slice(0, 20);
    const results = await fromBothProcesses(20, (url, index) =>
      callToolRaw(url, key, 'enrich_lead', { lead_id: leads[index]?.id }),
    );
    const used = await inProcess.services.quotaCounters.used(account._id, 'enrichments', new Date());
    const credits = (await inProcess.services.accounts.findById(account._id))?.credits_remaining;
    console.log(
      `[limits] two processes: 20 enrichments against a quota of 5: ${results.length - errorCodes(results).length} succeeded; ` +
        `enrichments used ${used}, credits 100 -> ${credits}`,
    );
    expect(errorCodes(results)).toEqual(Array(15).fill('quota_exceeded'));
    expect(used).toBe(5);
    expect(credits).toBe(95);
  });

  it('one lead enriched from both processes at once is charged once', async () => {
    const { key, account } = await createAccountWithKey(inProcess.services, { callsPerMinute: 10_000 });
    const lead = openLeads[20] as LeadDoc;
    const results = await fromBothProcesses(40, (url) =>
      callToolRaw(url, key, 'enrich_lead', { lead_id: lead.id }),
    );
    // First, so that a call that failed shows its error rather than a missing result.
    expect(results.filter((result) => result.isError).map(toolError)).toEqual([]);
    const charged = results.filter(
      (result) => (result.structuredContent as { charged_credits?: number }).charged_credits === 1,
    );
    const credits = (await inProcess.services.accounts.findById(account._id))?.credits_remaining;
    console.log(
      `[limits] two processes: 40 calls for one lead: ${charged.length} charged; credits 500 -> ${credits}`,
    );
    expect(charged).toHaveLength(1);
    expect(credits).toBe(499);
  });

  it('the per-minute budget holds: 20 simultaneous calls against 7 a minute', async () => {
    const { results, startedAt, endedAt } = await inOneMinuteWindow(async () => {
      const { key } = await createAccountWithKey(inProcess.services, { callsPerMinute: 7 });
      return fromBothProcesses(20, (url) => callToolRaw(url, key, 'get_account_usage'));
    });
    const refusals = results.filter((result) => result.isError).map(toolError);
    console.log(`[limits] two processes: 20 calls against 7 a minute: ${20 - refusals.length} answered`);
    expect(refusals.map((refusal) => refusal.code)).toEqual(Array(13).fill('rate_limited'));
    // Each refusal names the wait until the next window, as seen at some moment during the burst.
    for (const refusal of refusals) {
      expect(refusal.details.retry_after_seconds).toBeGreaterThanOrEqual(secondsToNextMinute(endedAt));
      expect(refusal.details.retry_after_seconds).toBeLessThanOrEqual(secondsToNextMinute(startedAt));
    }
  });
});
