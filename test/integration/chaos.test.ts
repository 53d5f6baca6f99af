import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDate } from '../../src/domain/calendar.js';
import { type CounterDoc, parseChargeEntry } from '../../src/stores/bounded-counter.js';
import { type ServerProcess, startServerProcess } from '../fuzz/server-process.js';
import { type BackendProxies, openDirectServices, startBackendProxies } from '../support/backend-proxies.js';
import { compiledServerCommand, testEnv } from '../support/backends.js';
import { postRaw, toolCallRequest } from '../support/mcp-client.js';
import type { TestServices } from '../support/test-server.js';
import { createAccountWithKey } from '../support/test-server.js';
import { until } from '../support/until.js';

/**
 * Two real server processes under steady load while Elasticsearch, then MongoDB, hangs and then
 * restarts, each process reaching them through TCP proxies of its own (test/support/tcp-proxy.ts):
 * a hang is both proxies paused, holding every byte as a frozen backend's kernel would and
 * delivering it on resume (so a charge whose call already failed may land then), a restart is both
 * cut and reopened. Then one process is killed with SIGKILL in the middle of a burst, and one dies
 * owing a refund that the next process started on the same disk makes.
 *
 * The one bound asserted on time is the server's own: a call answers within BACKEND_TIMEOUT_MS
 * (1 s here) plus half a second, whatever its backend does (docs/performance.md, "Answers within a
 * bound"). It is a behaviour of the server, its deadline, so it is asserted; with a second of margin
 * for a loaded two-core machine, and with hangs long enough (3.5 s) that a server without the
 * deadline would answer the calls started early in a hang only when it ends, past the margin.
 */

const BACKEND_TIMEOUT_MS = 1_000;
/** The promise (BACKEND_TIMEOUT_MS + 0.5 s), and the margin a busy machine may add to it. */
const ANSWER_BOUND_MS = BACKEND_TIMEOUT_MS + 500;
const MARGIN_MS = 1_000;
const HANG_MS = 3_500;
const PAGE_SIZE = 5;
/** Concurrent callers per process and account. */
const CALLERS = 2;

type AccountName = 'scale' | 'growth';

/** One answered call, as the load saw it. */
interface Sample {
  /** What the backends were going through when the call began. */
  phase: string;
  account: AccountName;
  server: number;
  tool: string;
  durationMs: number;
  status: number;
  /** `ok`, a tool error code, `http_<status>/<error>`, or `jsonrpc_<code>`. */
  outcome: string;
  /** Leads on an ok search_leads page. */
  leads: number;
}

let refundsDir: string;
let direct: { services: TestServices; close(): Promise<void> };
let proxies: BackendProxies[] = [];
let servers: ServerProcess[] = [];
const keys = {} as Record<AccountName, { key: string; accountId: string }>;

/** A server process reaching the backends through `proxy`, writing its owed refunds into `refundsDir`. */
function startServer(proxy: BackendProxies): Promise<ServerProcess> {
  return startServerProcess(
    {
      ...testEnv(),
      ...proxy.config,
      BACKEND_TIMEOUT_MS: String(BACKEND_TIMEOUT_MS),
      PENDING_REFUNDS_DIR: refundsDir,
      // Each call's line and each refund's, for the report of a charge check that fails.
      LOG_LEVEL: 'info',
    },
    compiledServerCommand(),
  );
}

beforeAll(async () => {
  refundsDir = mkdtempSync(path.join(tmpdir(), 'hiring-leads-chaos-refunds-'));
  direct = await openDirectServices();
  proxies = await Promise.all([startBackendProxies(), startBackendProxies()]);
  servers = await Promise.all(proxies.map(startServer));
  for (const plan of ['scale', 'growth'] as const) {
    const { account, key } = await createAccountWithKey(direct.services, { plan, callsPerMinute: 1_000_000 });
    // Growth's lead explores have a limit, so each is charged in MongoDB; Scale's have none, so each
    // process counts them and writes them in batches. Neither runs out here.
    if (plan === 'growth') {
      await direct.services.accounts.update(
        account._id,
        { quota_overrides: { lead_explores: 1_000_000 } },
        new Date(),
      );
    }
    keys[plan] = { key, accountId: account._id };
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await direct?.close();
  if (refundsDir) rmSync(refundsDir, { recursive: true, force: true });
});

/** What the backends are going through, for the samples and the summary. */
let phase = 'steady';

/** One tools/call, timed and classified; never throws for an answer the server gave. */
async function call(server: number, account: AccountName, tool: string, args: Record<string, unknown>) {
  const during = phase;
  const startedAt = performance.now();
  const answer = await postRaw(
    `${(servers[server] as ServerProcess).baseUrl}/mcp`,
    toolCallRequest(tool, args),
    {
      token: keys[account].key,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    },
  );
  const body = answer.json as
    | ({
        result?: {
          isError?: boolean;
          content?: { text: string }[];
          structuredContent?: { returned?: number };
        };
        error?: { code: number };
        // The HTTP edge's own answers (503 when the credential cannot be checked).
        // biome-ignore lint/suspicious/noExplicitAny: an OAuth-style error body
      } & Record<string, any>)
    | undefined;
  let outcome: string;
  if (body?.error?.code !== undefined) outcome = `jsonrpc_${body.error.code}`;
  else if (answer.status !== 200) outcome = `http_${answer.status}/${String(body?.error)}`;
  else if (body?.result?.isError) outcome = JSON.parse(body.result.content?.[0]?.text ?? '{}').error?.code;
  else outcome = 'ok';
  const leads =
    outcome === 'ok' && tool === 'search_leads' ? (body?.result?.structuredContent?.returned ?? 0) : 0;
  return {
    phase: during,
    account,
    server,
    tool,
    durationMs: performance.now() - startedAt,
    status: answer.status,
    outcome,
    leads,
  } satisfies Sample;
}

/** Steady load on both processes and both accounts until `stop`: searches, and now and then the usage. */
function steadyLoad() {
  const samples: Sample[] = [];
  let running = true;
  const workers = [0, 1].flatMap((server) =>
    (['scale', 'growth'] as const).flatMap((account) =>
      Array.from({ length: CALLERS }, async (_, caller) => {
        for (let round = 0; running; round++) {
          const usage = account === 'scale' && caller === 0 && round % 4 === 3;
          samples.push(
            await call(
              server,
              account,
              usage ? 'get_account_usage' : 'search_leads',
              usage ? {} : { page_size: PAGE_SIZE },
            ),
          );
        }
      }),
    ),
  );
  return {
    samples,
    stop: async () => {
      running = false;
      await Promise.all(workers);
    },
  };
}

/**
 * Waits until a search on every process succeeds again: recovery, without restarting anything.
 * Its calls join `samples`, since what they serve is charged too.
 */
async function recovered(samples: Sample[]): Promise<void> {
  for (const server of [0, 1]) {
    const searchServed = async () => {
      const sample = await call(server, 'growth', 'search_leads', { page_size: 1 });
      samples.push(sample);
      return sample.outcome === 'ok';
    };
    await until(searchServed, { timeoutMs: 15_000, what: `process ${server} to serve again` });
  }
}

/** Today's counter of lead explores, read past the proxies; summed over both days should the run cross midnight. */
async function leadExploresCharged(account: AccountName, days: Date[]): Promise<number> {
  const found = await leadExploresCounters(account, days);
  return found.reduce((sum, counter) => sum + counter.used, 0);
}

/** The account's counters of lead explores on `days`, read past the proxies. */
function leadExploresCounters(account: AccountName, days: Date[]): Promise<CounterDoc[]> {
  const ids = days.map(
    (day) =>
      direct.services.quotaCounters.newCharge(keys[account].accountId, 'lead_explores', null, day).counterId,
  );
  return direct.services.mongo.db
    .collection<CounterDoc>('quota_counters')
    .find({ _id: { $in: [...new Set(ids)] } })
    .toArray();
}

/** Every entry of a counter's charge journals, whichever process made them. */
const journalEntries = (counter: CounterDoc | null) => Object.values(counter?.charge_journals ?? {}).flat();

const served = (samples: Sample[], account: AccountName) =>
  samples.filter((sample) => sample.account === account).reduce((sum, sample) => sum + sample.leads, 0);

describe('chaos: two processes under load through backend hangs and restarts', { timeout: 120_000 }, () => {
  it('answers every call within the bound, never with a 500 or internal, recovers by itself, and charges exactly what it served', async () => {
    const startedOn = new Date();
    const load = steadyLoad();
    const phases: [string, () => Promise<void>][] = [
      ['Elasticsearch hangs', async () => hang('elasticsearch')],
      ['Elasticsearch restarts', async () => restart('elasticsearch')],
      ['MongoDB hangs', async () => hang('mongo')],
      ['MongoDB restarts', async () => restart('mongo')],
    ];
    try {
      await sleep(300);
      for (const [name, play] of phases) {
        phase = name;
        await play();
        phase = `recovering after: ${name}`;
        await recovered(load.samples);
      }
    } finally {
      phase = 'steady';
      await load.stop();
    }
    const { samples } = load;
    const failed = samples.filter((sample) => sample.outcome !== 'ok');
    const slowestFailure = Math.max(0, ...failed.map((sample) => sample.durationMs));
    for (const name of new Set(samples.map((sample) => sample.phase))) {
      const during = samples.filter((sample) => sample.phase === name);
      const tally = new Map<string, number>();
      for (const sample of during) tally.set(sample.outcome, (tally.get(sample.outcome) ?? 0) + 1);
      const slowest = Math.max(0, ...during.filter((s) => s.outcome !== 'ok').map((s) => s.durationMs));
      console.log(
        `[chaos] ${name}: ${during.length} calls (${[...tally].map(([outcome, count]) => `${outcome} ${count}`).join(', ')}), ` +
          `slowest failed answer ${Math.round(slowest)} ms`,
      );
    }

    // Every answer is a success, the retryable `unavailable`, or the edge's 503 when the credential
    // cannot be checked: never a 500, a JSON-RPC internal error, or a tool error `internal`.
    const expected = new Set(['ok', 'unavailable', 'http_503/temporarily_unavailable']);
    expect(samples.filter((sample) => !expected.has(sample.outcome))).toEqual([]);
    expect(failed.length).toBeGreaterThan(0);
    expect(slowestFailure).toBeLessThanOrEqual(ANSWER_BOUND_MS + MARGIN_MS);
    for (const server of servers) {
      const errors = server.errorLog();
      expect(errors.count, errors.lines.join('\n')).toBe(0);
    }

    // Usage equals what was served: refunds queued during the MongoDB hang land once it is back, and
    // charges whose commands reached MongoDB only after their call had failed are taken back. The
    // processes write what they counted on Scale within half a second.
    const days = [startedOn, new Date()];
    for (const account of ['growth', 'scale'] as const) {
      await until(async () => (await leadExploresCharged(account, days)) === served(samples, account), {
        timeoutMs: 20_000,
        what: `${account}'s lead explores to equal the ${served(samples, account)} leads served`,
      }).catch(async (error: Error) => {
        throw new Error(`${error.message}\n${await chargeReport(account, days, samples)}`);
      });
    }
  });

  /** What a failed charge check needs to be understood: the counter's journal and the servers' warnings. */
  async function chargeReport(account: AccountName, days: Date[], samples: Sample[]): Promise<string> {
    const counters = await leadExploresCounters(account, days);
    const journal = counters.map((counter) => {
      const charges = journalEntries(counter).map(parseChargeEntry);
      const held = new Map<number, number>();
      for (const { units } of charges) held.set(units, (held.get(units) ?? 0) + 1);
      return `${counter._id}: used ${counter.used}, ${charges.length} journal entries (units × entries: ${[...held].map(([units, count]) => `${units}×${count}`).join(', ')}), ${Object.values(counter.cancelled_charges ?? {}).flat().length} cancelled`;
    });
    const okCalls = samples.filter((sample) => sample.account === account && sample.outcome === 'ok').length;
    // Charges of failed calls (the servers name them when they refund) still held in the journal.
    const outputs = servers.map((server) => server.output());
    const stillHeld = counters.flatMap((counter) =>
      journalEntries(counter).filter((entry) =>
        outputs.some((output) => output.includes(`"charge_id":"${parseChargeEntry(entry).id}"`)),
      ),
    );
    for (const [index, output] of outputs.entries()) {
      writeFileSync(path.join(tmpdir(), `chaos-process-${index}.log`), output);
    }
    const warnings = outputs.flatMap((output, index) =>
      output
        .split('\n')
        .filter(
          (line) =>
            /"level":"(warn|error)"/.test(line) ||
            (line.includes(keys[account].accountId) && /refund|"outcome":"(?!ok)/.test(line)),
        )
        .slice(-60)
        .map((line) => `process ${index}: ${line.slice(0, 400)}`),
    );
    return [
      `charged ${await leadExploresCharged(account, days)}, served ${served(samples, account)} in ${okCalls} ok calls`,
      ...journal,
      `journal entries of failed calls: ${stillHeld.join(', ') || 'none'}`,
      ...warnings,
    ].join('\n');
  }

  async function hang(backend: 'elasticsearch' | 'mongo') {
    for (const proxy of proxies) proxy[backend].pause();
    await sleep(HANG_MS);
    await Promise.all(proxies.map((proxy) => proxy[backend].restore()));
  }

  async function restart(backend: 'elasticsearch' | 'mongo') {
    await Promise.all(proxies.map((proxy) => proxy[backend].cut()));
    await sleep(500);
    await Promise.all(proxies.map((proxy) => proxy[backend].restore()));
  }

  it('a process killed with SIGKILL in the middle of a burst charges nothing twice', async () => {
    const day = new Date();
    const before = {
      growth: await leadExploresCharged('growth', [day]),
      scale: await leadExploresCharged('scale', [day]),
    };
    const victim = servers[0] as ServerProcess;
    // 8 concurrent searches per process and account, 24 each; the first process dies after 30 answers.
    const samples: Sample[] = [];
    let unanswered = { growth: 0, scale: 0 };
    const burst = [0, 1].flatMap((server) =>
      (['growth', 'scale'] as const).flatMap((account) =>
        Array.from({ length: 8 }, async () => {
          for (let round = 0; round < 3; round++) {
            try {
              samples.push(await call(server, account, 'search_leads', { page_size: PAGE_SIZE }));
            } catch {
              // The killed process's connections drop: these calls got no answer.
              unanswered = { ...unanswered, [account]: unanswered[account] + 1 };
              return;
            }
            if (server === 0 && samples.filter((sample) => sample.server === 0).length >= 30) victim.kill();
          }
        }),
      ),
    );
    await Promise.all(burst);
    await victim.exited;
    // A loaded machine may make a call of the burst run out of its second: it answers unavailable
    // and is refunded like any other.
    expect(samples.filter((sample) => !['ok', 'unavailable'].includes(sample.outcome))).toEqual([]);
    // Started on the same disk, the next process makes the refunds the killed one still owed.
    servers[0] = await startServer(proxies[0] as BackendProxies);
    expect((await call(0, 'growth', 'search_leads', { page_size: 1 })).outcome).toBe('ok');
    const servedGrowth = served(samples, 'growth') + 1;

    // Growth: each charge is one conditional update in MongoDB, journalled under its own id. A call
    // that got no answer may have been charged (the process died after its charge): it is lost to
    // the caller, never charged twice.
    const growthCharged = async () => (await leadExploresCharged('growth', [day])) - before.growth;
    await until(async () => (await growthCharged()) <= servedGrowth + PAGE_SIZE * unanswered.growth, {
      timeoutMs: 15_000,
      what: 'the refunds of the calls that failed',
    });
    const growth = await growthCharged();
    expect(growth).toBeGreaterThanOrEqual(servedGrowth);
    const counter = await direct.services.mongo.db.collection<CounterDoc>('quota_counters').findOne({
      _id: direct.services.quotaCounters.newCharge(keys.growth.accountId, 'lead_explores', null, day)
        .counterId,
    });
    const ids = journalEntries(counter).map((entry) => parseChargeEntry(entry).id);
    expect(new Set(ids).size).toBe(ids.length);

    // Scale: the killed process loses what it counted and had not written yet (at most half a
    // second of its calls); the surviving process writes all of its own. Never more than served.
    const survivorServed = served(
      samples.filter((sample) => sample.server === 1),
      'scale',
    );
    await until(async () => (await leadExploresCharged('scale', [day])) - before.scale >= survivorServed, {
      what: 'the surviving process to write its Scale units',
    });
    const scale = (await leadExploresCharged('scale', [day])) - before.scale;
    expect(scale).toBeLessThanOrEqual(served(samples, 'scale'));
    console.log(
      `[chaos] SIGKILL mid-burst: growth charged ${growth} for ${servedGrowth} served (${unanswered.growth} calls unanswered); ` +
        `scale charged ${scale} for ${served(samples, 'scale')} served (${unanswered.scale} unanswered); ${isoDate(day)}`,
    );
  });

  it('a refund owed by a process killed before MongoDB could take it is made by the next process started on the same disk', async () => {
    const day = new Date();
    const before = await leadExploresCharged('growth', [day]);
    const proxy = proxies[1] as BackendProxies;
    // The charge lands, its answer is lost, and MongoDB stays away from this process: the refund is
    // written down and retried, and the process dies before MongoDB is back.
    const fault = proxy.mongo.failOn(
      { name: 'findAndModify', collection: 'quota_counters' },
      { lose: 'reply', drop: 'everything' },
    );
    // A call that failed before its charge (out of time on a loaded machine) leaves the fault armed.
    let outcome = '';
    for (let attempt = 0; attempt < 5 && fault.fired === 0; attempt++) {
      outcome = (await call(1, 'growth', 'search_leads', { page_size: PAGE_SIZE })).outcome;
    }
    expect([fault.fired, outcome]).toEqual([1, 'unavailable']);
    expect(await leadExploresCharged('growth', [day])).toBe(before + PAGE_SIZE);
    expect(readdirSync(refundsDir).length).toBeGreaterThan(0);
    const victim = servers[1] as ServerProcess;
    victim.kill();
    await victim.exited;

    await proxy.restore();
    servers[1] = await startServer(proxy);
    await until(async () => (await leadExploresCharged('growth', [day])) === before, {
      timeoutMs: 15_000,
      what: 'the refund the killed process owed',
    });
    await until(() => readdirSync(refundsDir).length === 0, {
      what: 'the refunds file to go once nothing is owed',
    });
  });
});
