import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { STALE_CLAIM_MS } from '../../src/billing/enrich.js';
import type { LeadDoc } from '../../src/domain/documents.js';
import { QUOTA_KEYS, type QuotaKey } from '../../src/plans.js';
import type { CounterDoc } from '../../src/stores/bounded-counter.js';
import type { UnlockDoc } from '../../src/stores/unlocks.js';
import { type BackendProxies, openDirectServices, startBackendProxies } from '../support/backend-proxies.js';
import { callToolRaw, postRaw, toolCallRequest, toolError } from '../support/mcp-client.js';
import type { MongoCommand } from '../support/mongo-wire.js';
import { newestLeadsFirst, SEEDED_NOW, seededLeads, startSeededServer } from '../support/seeded-data.js';
import { createAccountWithKey, manualCacheClock, type TestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

/**
 * The server serves again by itself, without a restart: a call succeeds. Polled rather than
 * asserted of the first call: on a loaded machine the first call after a dropped connection may
 * still run out of its 1 s while the driver finds the server again, and answer `unavailable` (or,
 * from the credential check, HTTP 503), which its client retries.
 */
async function servesAgain(send: () => Promise<CallToolResult>): Promise<void> {
  let last: CallToolResult | string | undefined;
  await until(
    async () => {
      try {
        last = await send();
      } catch (error) {
        // The credential check's outage answer (HTTP 503) is not serving yet either.
        last = (error as Error).message;
        return false;
      }
      return !last.isError;
    },
    { timeoutMs: 10_000, what: 'a call to succeed again' },
  ).catch((error: Error) => {
    throw new Error(`${error.message}; the last answer: ${JSON.stringify(last)}`);
  });
}

/**
 * Backend outages, played for real in every mode (local build, Docker, URLs from the
 * environment): each server under test reaches Elasticsearch and MongoDB through TCP proxies that
 * the tests cut, black-hole, or make drop one chosen MongoDB command, so the drivers raise their
 * own errors and the server translates them. A call during an outage answers the retryable
 * `unavailable` (or HTTP 503 when the credential itself cannot be checked), charges nothing, and
 * the first call after the proxy is restored works, without restarting the server. What was
 * charged is read past the proxies, over a connection of the test's own.
 */

const UNAVAILABLE = { code: 'unavailable', details: { retryable: true } };
const STARTING_CREDITS = 3;

let direct: Awaited<ReturnType<typeof openDirectServices>>;
/** An open role at a company with a profile, and another one. */
let lead: LeadDoc;
let otherLead: LeadDoc;

/** The servers' BACKEND_TIMEOUT_MS here: how long a call waits for a backend that is cut or hangs. */
const OUTAGE_TIMEOUT = { BACKEND_TIMEOUT_MS: '1000' };

beforeAll(async () => {
  direct = await openDirectServices(OUTAGE_TIMEOUT);
  const openRoles = (await seededLeads())
    .filter((candidate) => candidate.is_open && candidate.company.id)
    .sort(newestLeadsFirst);
  [lead, otherLead] = openRoles as [LeadDoc, LeadDoc];
});

afterAll(async () => {
  await direct?.close();
});

async function newAccount(): Promise<{ key: string; accountId: string }> {
  // Created on the seeded day, so no credit renewal falls due during a call.
  const { account, key } = await createAccountWithKey(direct.services, {
    createdAt: SEEDED_NOW,
    callsPerMinute: 100_000,
  });
  await direct.services.accounts.update(account._id, { credits_remaining: STARTING_CREDITS }, SEEDED_NOW);
  // As an account that has unlocked leads before, whose cards need the unlock lookup that some of
  // these faults hit (an account that never has skips it).
  await direct.services.accounts.noteUnlocks(account._id);
  return { key, accountId: account._id };
}

/** Everything the account has been charged, and its open journal entries, read past the proxies. */
async function charges(accountId: string) {
  const { accounts, quotaCounters, mongo } = direct.services;
  const account = await accounts.findById(accountId);
  if (account === null) throw new Error(`account ${accountId} is gone`);
  const used = await Promise.all(
    QUOTA_KEYS.map(async (quota) => [quota, await quotaCounters.used(accountId, quota, SEEDED_NOW)]),
  );
  const enrichments = await mongo.db.collection<CounterDoc>('quota_counters').findOne({
    _id: direct.services.quotaCounters.newCharge(accountId, 'enrichments', null, SEEDED_NOW).counterId,
  });
  const unlocks = await mongo.db
    .collection<UnlockDoc>('unlocks')
    .find({ account_id: accountId }, { projection: { _id: 0, lead_id: 1, state: 1 } })
    .sort({ lead_id: 1 })
    .toArray();
  return {
    ...(Object.fromEntries(used) as Record<QuotaKey, number>),
    credits: account.credits_remaining,
    credit_claims: account.credit_claims,
    enrichment_claims: enrichments?.journal ?? [],
    unlocks,
  };
}

/**
 * Expects what the account ends up charged once a failed call's refunds have landed: a call answers
 * at its deadline (BACKEND_TIMEOUT_MS, plus a moment for its refunds), and a refund slowed by the
 * outage lands after the answer, from the disk-backed queue (docs/search-semantics.md, "Metering").
 * On failure the servers' log lines about the account come with it: a late refund from a lost one.
 */
async function expectSettledCharges(accountId: string, expected: unknown): Promise<void> {
  try {
    await expect.poll(() => charges(accountId), { interval: 50, timeout: 10_000 }).toEqual(expected);
  } catch (error) {
    const logged = readFileSync(inject('runLogFile'), 'utf8')
      .split('\n')
      .filter((line) => line.includes(accountId) || line.includes('restarting the MongoDB client'));
    (error as Error).message += `\nWhat the servers logged about ${accountId}:\n${logged.join('\n')}`;
    throw error;
  }
}

const NOTHING_CHARGED = {
  lead_explores: 0,
  company_explores: 0,
  insight_queries: 0,
  enrichments: 0,
  credits: STARTING_CREDITS,
  credit_claims: [],
  enrichment_claims: [],
  unlocks: [],
};

/** One call of each tool that reads Elasticsearch and charges in MongoDB. */
const everyTool = () =>
  [
    ['search_leads', { page_size: 5 }],
    ['get_company', { company_id: lead.company.id }],
    ['get_market_insights', { group_by: 'city' }],
    ['enrich_lead', { lead_id: lead.id }],
  ] as const;

/** What `everyTool` charges when every call succeeds. */
const CHARGED_ONCE_EACH = {
  ...NOTHING_CHARGED,
  lead_explores: 5,
  company_explores: 1,
  insight_queries: 1,
  enrichments: 1,
  credits: STARTING_CREDITS - 1,
};

/**
 * A seeded server of the enclosing `describe`, reaching the backends through proxies of its own;
 * after each test both proxies forward again, whatever the test did to them.
 *
 * Its identity copies never age (a cache clock that stands still): a faulted call finds its
 * account's identity where the test's set-up left it however loaded the machine, so no identity
 * read meets the fault. Each test that needs the read uses an account the server has not seen.
 */
function seededServerBehindProxies(config: Record<string, string> = {}) {
  const behind = {} as { proxies: BackendProxies; server: TestServer };
  beforeAll(async () => {
    behind.proxies = await startBackendProxies();
    behind.server = await startSeededServer(
      { ...behind.proxies.config, ...config },
      { cacheClock: manualCacheClock().now },
    );
  });
  afterEach(async () => {
    await behind.proxies.restore();
  });
  afterAll(async () => {
    await behind.server?.close();
    await behind.proxies?.close();
  });
  return behind;
}

describe('outages through the real tools', () => {
  const behind = seededServerBehindProxies(OUTAGE_TIMEOUT);

  const call = (key: string, tool: string, args: Record<string, unknown> = {}) =>
    callToolRaw(behind.server.url, key, tool, args);

  const readiness = async () => {
    const answer = await fetch(`${behind.server.root}/readyz`);
    return { status: answer.status, body: await answer.json() };
  };

  /** Calls each tool once; every call must succeed. */
  async function callEveryTool(key: string) {
    for (const [tool, args] of everyTool()) {
      const result = await call(key, tool, args);
      expect(result.isError, `${tool}: ${JSON.stringify(result.content)}`).toBeFalsy();
    }
  }

  /**
   * Cuts one backend for a new account while `duringOutage` checks its calls, then checks that
   * readiness names the cut backend and nothing was charged; restored, every tool works and
   * charges once, with no restart.
   */
  async function throughOutageOf(
    backend: 'elasticsearch' | 'mongo',
    duringOutage: (key: string) => Promise<void>,
  ): Promise<void> {
    const { key, accountId } = await newAccount();
    await behind.proxies[backend].cut();
    try {
      await duringOutage(key);
      expect(await readiness()).toEqual({
        status: 503,
        body: {
          status: 'unavailable',
          elasticsearch: backend === 'elasticsearch' ? 'down' : 'up',
          mongodb: backend === 'mongo' ? 'down' : 'up',
        },
      });
      expect(await charges(accountId)).toEqual(NOTHING_CHARGED);
    } finally {
      await behind.proxies.restore();
    }
    await callEveryTool(key);
    expect(await charges(accountId)).toEqual({
      ...CHARGED_ONCE_EACH,
      unlocks: [{ lead_id: lead.id, state: 'done' }],
    });
  }

  it('Elasticsearch cut: each tool answers unavailable and charges nothing; restored, each works without a restart', async () => {
    await throughOutageOf('elasticsearch', async (key) => {
      for (const [tool, args] of everyTool()) {
        expect(toolError(await call(key, tool, args)), tool).toMatchObject(UNAVAILABLE);
      }
      // MongoDB alone still answers the account's own questions.
      expect((await call(key, 'get_account_usage')).structuredContent).toMatchObject({
        enrichment_credits: { remaining: STARTING_CREDITS },
      });
    });
  });

  it('MongoDB cut: the credential cannot be checked, so each call is HTTP 503 with Retry-After and charges nothing; restored, each works', async () => {
    await throughOutageOf('mongo', async (key) => {
      const answers = await Promise.all(
        everyTool().map(([tool, args]) =>
          postRaw(behind.server.url, toolCallRequest(tool, args), { token: key }),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('5');
        expect(answer.json).toMatchObject({ error: 'temporarily_unavailable' });
      }
    });
  });

  // The connection carrying one MongoDB command of the call drops: the driver's network error
  // fails the call, and the charge (if made) is given back over a new connection. A read is
  // retried once by the driver, so its fault drops the retry too.
  const chargeOf = (collection: string): MongoCommand => ({ name: 'findAndModify', collection });
  const unlockLookup: MongoCommand = { name: 'find', collection: 'unlocks' };
  const midCallFaults = [
    ['search_leads', 'its charge', chargeOf('quota_counters'), 1],
    ['search_leads', 'the unlock lookup after its charge', unlockLookup, 2],
    ['get_company', 'its charge', chargeOf('quota_counters'), 1],
    ['get_company', 'the unlock lookup after its charge', unlockLookup, 2],
    ['get_market_insights', 'its charge', chargeOf('quota_counters'), 1],
  ] as const;

  it.each(
    midCallFaults,
  )('%s with MongoDB lost at %s: unavailable, nothing charged; the next call works', async (tool, _step, command, times) => {
    const { key, accountId } = await newAccount();
    const args = Object.fromEntries(everyTool())[tool] as Record<string, unknown>;
    const fault = behind.proxies.mongo.failOn(command, { times });
    const failed = await call(key, tool, args);
    expect(fault.fired).toBe(times);
    expect(toolError(failed)).toMatchObject(UNAVAILABLE);
    await expectSettledCharges(accountId, NOTHING_CHARGED);
    await servesAgain(() => call(key, tool, args));
  });

  /** An account that called `tool` once already, so today's counter exists and a charge is one update. */
  async function accountThatCalledBefore(tool: (typeof midCallFaults)[number][0]) {
    const created = await newAccount();
    const args = Object.fromEntries(everyTool())[tool] as Record<string, unknown>;
    // After the previous test's fault, the driver may still be finding the server again.
    await servesAgain(() => call(created.key, tool, args));
    return { ...created, args, before: await charges(created.accountId) };
  }

  // The charge lands and only its answer is lost: the meter cannot know whether it landed, so the
  // refund looks for the charge's entry in the counter's journal and gives back what it holds.
  it.each([
    'search_leads',
    'get_company',
    'get_market_insights',
  ] as const)('%s whose charge lands but whose answer is lost: unavailable, and the charge is given back', async (tool) => {
    const { key, accountId, args, before } = await accountThatCalledBefore(tool);
    const fault = behind.proxies.mongo.failOn(chargeOf('quota_counters'), { lose: 'reply' });
    const failed = await call(key, tool, args);
    expect(fault.fired).toBe(1);
    expect(toolError(failed)).toMatchObject(UNAVAILABLE);
    await expectSettledCharges(accountId, before);
  });

  // MongoDB goes away for good after the charge, so the call's refund cannot reach it either: the
  // refund is queued in the server and lands once MongoDB is back, without another call.
  it.each([
    ['its charge (answer lost)', chargeOf('quota_counters'), 'reply'],
    ['the unlock lookup after its charge', unlockLookup, 'request'],
  ] as const)('search_leads with MongoDB gone from %s: unavailable; the refund waits in the background and lands once MongoDB is back', async (_step, command, lose) => {
    const { key, accountId, args, before } = await accountThatCalledBefore('search_leads');
    const fault = behind.proxies.mongo.failOn(command, { lose, drop: 'everything' });
    let failed: CallToolResult;
    try {
      failed = await call(key, 'search_leads', args);
      // The refund could not reach MongoDB: the charge is still there, queued to be given back.
      expect(await charges(accountId)).toEqual({ ...before, lead_explores: before.lead_explores + 5 });
    } finally {
      await behind.proxies.restore();
    }
    expect(fault.fired).toBe(1);
    expect(toolError(failed)).toMatchObject(UNAVAILABLE);
    await expect.poll(() => charges(accountId), { interval: 50, timeout: 20_000 }).toEqual(before);
    await servesAgain(() => call(key, 'search_leads', args));
  });
});

/**
 * enrich_lead's charge spans three documents (src/billing/enrich.ts): it reserves one of today's
 * enrichments, takes a credit, then records the unlock. MongoDB fails at each step in turn, the
 * command either lost on its way or run with its answer lost, after earlier steps have charged.
 */
describe('enrich_lead when MongoDB fails between the steps of its charge', () => {
  const behind = seededServerBehindProxies(OUTAGE_TIMEOUT);

  const enrich = (key: string, leadId: string) =>
    callToolRaw(behind.server.url, key, 'enrich_lead', { lead_id: leadId });

  /** An account that has enriched once already, so today's counter and its journal exist. */
  async function accountThatEnrichedBefore() {
    const created = await newAccount();
    const first = await enrich(created.key, otherLead.id);
    expect(first.structuredContent).toMatchObject({ charged_credits: 1 });
    return { ...created, before: await charges(created.accountId) };
  }

  const takingTheCredit: MongoCommand = { name: 'findAndModify', collection: 'accounts' };
  const steps: [string, MongoCommand][] = [
    ['reserving the enrichment', { name: 'findAndModify', collection: 'quota_counters' }],
    ['taking the credit', takingTheCredit],
    ['recording the unlock', { name: 'update', collection: 'unlocks' }],
  ];

  it.each(
    steps.flatMap(([step, command]) =>
      (['request', 'reply'] as const).map((lose) => [step, lose, command] as const),
    ),
  )('while %s (%s lost): unavailable, nothing charged, and the retry works', async (step, lose, command) => {
    const { key, accountId, before } = await accountThatEnrichedBefore();
    const fault = behind.proxies.mongo.failOn(command, { lose });
    const failed = await enrich(key, lead.id);
    expect(fault.fired).toBe(1);
    expect(toolError(failed)).toMatchObject(UNAVAILABLE);

    // The undo reached the database over a new connection: every charge is given back at once.
    // Only an unlock recorded before its answer was lost stays, free: nothing was paid for it.
    const recorded = step === 'recording the unlock' && lose === 'reply';
    const unlocks = recorded ? [...before.unlocks, { lead_id: lead.id, state: 'done' }] : before.unlocks;
    await expectSettledCharges(accountId, { ...before, unlocks: sortedByLead(unlocks) });

    const retried = await enrich(key, lead.id);
    expect(retried.structuredContent).toMatchObject(
      recorded
        ? { already_enriched: true, charged_credits: 0, credits: before.credits }
        : { already_enriched: false, charged_credits: 1, credits: before.credits - 1 },
    );
  });

  it('MongoDB gone from the credit step on: the undo fails too, and the claim is given back once it is stale', async () => {
    const { key, accountId, before } = await accountThatEnrichedBefore();
    // The credit is taken, its answer lost, and MongoDB stays unreachable for the undo.
    const fault = behind.proxies.mongo.failOn(takingTheCredit, { lose: 'reply', drop: 'everything' });
    let failed: CallToolResult;
    try {
      failed = await enrich(key, lead.id);
    } finally {
      await behind.proxies.restore();
    }
    expect(fault.fired).toBe(1);
    expect(toolError(failed)).toMatchObject(UNAVAILABLE);

    const held = {
      ...before,
      enrichments: before.enrichments + 1,
      credits: before.credits - 1,
      credit_claims: [expect.any(String)],
      enrichment_claims: [expect.any(String)],
      unlocks: sortedByLead([...before.unlocks, { lead_id: lead.id, state: 'pending' }]),
    };
    expect(await charges(accountId)).toEqual(held);
    // A claim this young may belong to a call still running: looking at the account leaves it be.
    expect((await callToolRaw(behind.server.url, key, 'get_account_usage')).isError).toBeFalsy();
    expect(await charges(accountId)).toEqual(held);

    // As if STALE_CLAIM_MS had passed: the claim was made that much earlier on the wall clock.
    const unlocks = direct.services.mongo.db.collection<UnlockDoc>('unlocks');
    const pending = await unlocks.findOne({ account_id: accountId, lead_id: lead.id, state: 'pending' });
    await unlocks.updateOne(
      { account_id: accountId, lead_id: lead.id, claim_id: pending?.claim_id },
      { $set: { claimed_at: new Date((pending?.claimed_at?.getTime() ?? 0) - STALE_CLAIM_MS) } },
    );
    const usage = await callToolRaw(behind.server.url, key, 'get_account_usage');
    expect(usage.structuredContent).toMatchObject({
      enrichment_credits: { remaining: before.credits },
      daily_quotas: { enrichments: { used: before.enrichments } },
    });
    expect(await charges(accountId)).toEqual(before);

    const retried = await enrich(key, lead.id);
    expect(retried.structuredContent).toMatchObject({
      already_enriched: false,
      charged_credits: 1,
      credits: before.credits - 1,
    });
  });
});

/**
 * A backend that takes the connection and never answers: only the server's BACKEND_TIMEOUT_MS (1 s
 * here) can end the call. Without it the drivers would wait 30 s or more (Elasticsearch requests
 * have no timeout of their own; MongoDB's would end only when its monitor gave up), past these
 * tests' own timeout; so a retryable answer at all, and the server hanging up on the black hole by
 * itself, show that the setting bounds the wait. No clock is read.
 */
describe('a backend that accepts connections but never answers', { timeout: 15_000 }, () => {
  const behind = seededServerBehindProxies(OUTAGE_TIMEOUT);

  it('Elasticsearch: the call gives up on its own with unavailable and charges nothing; restored, it works', async () => {
    const { key, accountId } = await newAccount();
    const hole = behind.proxies.elasticsearch.blackHole();
    try {
      const failed = await callToolRaw(behind.server.url, key, 'search_leads', { page_size: 5 });
      expect(toolError(failed)).toMatchObject(UNAVAILABLE);
      // The call answers at its own deadline; the client's request, sent a moment after the call
      // began, times out a moment later and closes its connection.
      await until(() => hole.abandonedConnections > 0, { what: 'the server to hang up on the black hole' });
      await expectSettledCharges(accountId, NOTHING_CHARGED);
    } finally {
      await behind.proxies.restore();
    }
    await servesAgain(() => callToolRaw(behind.server.url, key, 'search_leads', { page_size: 5 }));
  });

  it('MongoDB: the credential check gives up on its own with HTTP 503; restored, calls work', async () => {
    const { key, accountId } = await newAccount();
    const hole = behind.proxies.mongo.blackHole();
    try {
      const answer = await postRaw(behind.server.url, toolCallRequest('search_leads', { page_size: 5 }), {
        token: key,
      });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.json).toMatchObject({ error: 'temporarily_unavailable' });
      // The check answers at its deadline; the driver's read of the connection times out a moment
      // later and closes it.
      await until(() => hole.abandonedConnections > 0, { what: 'the server to hang up on the black hole' });
    } finally {
      await behind.proxies.restore();
    }
    await expectSettledCharges(accountId, NOTHING_CHARGED);
    await servesAgain(() => callToolRaw(behind.server.url, key, 'search_leads', { page_size: 5 }));
  });
});

/** In the order `charges` reads them: MongoDB compares strings byte by byte. */
function sortedByLead<T extends { lead_id: string }>(unlocks: T[]): T[] {
  return [...unlocks].sort((a, b) => (a.lead_id < b.lead_id ? -1 : 1));
}
