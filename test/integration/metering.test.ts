import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Unavailable } from '../../src/errors.js';
import { type ChargeRef, type QuotaCharge, QuotaCounters } from '../../src/metering/quota-counters.js';
import { STORED_FIGURE_FRESH_MS } from '../../src/metering/usage-tally.js';
import {
  addUnboundedOnce,
  CHARGE_JOURNAL_LENGTH,
  type CounterDoc,
  parseChargeEntry,
} from '../../src/stores/bounded-counter.js';
import { QuotaCountersStore } from '../../src/stores/quota-counters.js';
import { defineTool, type ToolContext } from '../../src/tools/define-tool.js';
import { testBackends } from '../support/backends.js';
import { fakeTools } from '../support/fake-tools.js';
import { callToolRaw, toolError } from '../support/mcp-client.js';
import { runLog } from '../support/run-log.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * One reading of the clock for the whole file: every charge and every read of a counter names the
 * same UTC day, even in a run that crosses midnight.
 */
const NOW = new Date();

describe('quota counters under concurrency', () => {
  let clients: MongoClient[];
  let stores: QuotaCounters[];

  beforeAll(async () => {
    // Two clients, as two server processes would have.
    clients = [new MongoClient(testBackends().mongodbUri), new MongoClient(testBackends().mongodbUri)];
    await Promise.all(clients.map((client) => client.connect()));
    stores = clients.map(
      (client) => new QuotaCounters(new QuotaCountersStore(client.db(testBackends().mongoDb)), runLog()),
    );
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });

  const race = (accountId: string, partial: boolean) => {
    const now = NOW;
    return Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        (stores[index % 2] as QuotaCounters).charge(accountId, 'lead_explores', 10, 173, {
          partial,
          now,
        }),
      ),
    );
  };

  it('50 simultaneous partial charges of 10 against 173 grant exactly 173', async () => {
    const charges = await race('acc_partial_race', true);
    expect(charges.reduce((sum, charge) => sum + charge.granted, 0)).toBe(173);
    expect(charges.filter((charge) => charge.granted === 3)).toHaveLength(1);
    expect(await stores[0]?.used('acc_partial_race', 'lead_explores', NOW)).toBe(173);
  });

  it('50 simultaneous exact charges of 10 against 173 grant 17 of them', async () => {
    const charges = await race('acc_exact_race', false);
    expect(charges.filter((charge) => charge.granted === 10)).toHaveLength(17);
    expect(charges.filter((charge) => charge.granted === 0)).toHaveLength(33);
    expect(await stores[1]?.used('acc_exact_race', 'lead_explores', NOW)).toBe(170);
  });

  /** Every entry of a counter's charge journals, whichever process made them. */
  const journalEntries = (counter: CounterDoc | null) => Object.values(counter?.charge_journals ?? {}).flat();

  const counterOf = (accountId: string) =>
    (clients[0] as MongoClient)
      .db(testBackends().mongoDb)
      .collection<CounterDoc>('quota_counters')
      .findOne({
        _id: (stores[0] as QuotaCounters).newCharge(accountId, 'lead_explores', null, NOW).counterId,
      });

  it('journals each charge with what it granted, and refunds from both processes at once give each back exactly once', async () => {
    const charges = await race('acc_refund_race', true);
    const journal = journalEntries(await counterOf('acc_refund_race')).map(parseChargeEntry);
    expect(journal.map((entry) => entry.id).sort()).toEqual(
      charges.flatMap((charge) => (charge.granted > 0 ? [charge.chargeId] : [])).sort(),
    );
    expect(journal.reduce((sum, entry) => sum + entry.units, 0)).toBe(173);

    // Every charge refunded four times at once, from both processes, knowing or not what it holds.
    const refunded = await Promise.all(
      charges.flatMap((charge, index) =>
        [charge.granted, null, charge.granted, null].map((held, attempt) =>
          (stores[(index + attempt) % 2] as QuotaCounters).refundCharge(charge, held),
        ),
      ),
    );
    expect(refunded.reduce((sum, units) => sum + units, 0)).toBe(173);
    expect(await stores[0]?.used('acc_refund_race', 'lead_explores', NOW)).toBe(0);
    expect(journalEntries(await counterOf('acc_refund_race'))).toEqual([]);
  });

  it('a give-back lowers the journal entry, so a refund returns only the rest, even when it believes otherwise', async () => {
    const [store] = stores as [QuotaCounters];
    const now = NOW;
    const charge = await store.charge('acc_give_back', 'lead_explores', 10, 100, { partial: true, now });
    expect(await store.giveBack(charge, charge.granted, 4)).toBe(6);
    // As after a give-back whose answer was lost: the caller still believes the charge holds 10.
    expect(await store.refundCharge(charge, 10)).toBe(6);
    expect(await store.refundCharge(charge, null)).toBe(0);
    expect(await store.used('acc_give_back', 'lead_explores', now)).toBe(0);
  });

  it('a charge whose command reaches MongoDB only after its refund gave it up never lands', async () => {
    const [store, other] = stores as [QuotaCounters, QuotaCounters];
    await store.charge('acc_late_charge', 'lead_explores', 4, 100, {
      partial: false,
      now: NOW,
    });
    // The call gave up on these charges without an answer: their refunds find nothing, and cancel them.
    const late = ['late-exact', 'late-partial'].map((chargeId) => ({
      ...store.newCharge('acc_late_charge', 'lead_explores', 100, NOW),
      chargeId,
    }));
    for (const charge of late) expect(await other.refundCharge(charge, null)).toBe(0);
    // Their commands arrive now, as after a backend that hung: neither adds anything.
    const [exact, partial] = await Promise.all([
      store.charge('acc_late_charge', 'lead_explores', 5, 100, {
        partial: false,
        now: NOW,
        ref: late[0],
      }),
      store.charge('acc_late_charge', 'lead_explores', 5, 100, {
        partial: true,
        now: NOW,
        ref: late[1],
      }),
    ]);
    expect([exact.granted, partial.granted]).toEqual([0, 0]);
    expect(await store.used('acc_late_charge', 'lead_explores', NOW)).toBe(4);
    // The same holds on a counter that did not exist yet: the cancellation creates it.
    const first = { ...store.newCharge('acc_late_first', 'lead_explores', 100, NOW), chargeId: 'late-first' };
    expect(await store.refundCharge(first, null)).toBe(0);
    const landed = await store.charge('acc_late_first', 'lead_explores', 5, 100, {
      partial: true,
      now: NOW,
      ref: first,
    });
    expect([landed.granted, await store.used('acc_late_first', 'lead_explores', NOW)]).toEqual([0, 0]);
  });

  it('a give-back whose command reaches MongoDB only after its call refunded the charge gives nothing more', async () => {
    const [store, other] = stores as [QuotaCounters, QuotaCounters];
    await store.charge('acc_late_give_back', 'lead_explores', 4, 100, { partial: false, now: NOW });
    const charge = await store.charge('acc_late_give_back', 'lead_explores', 10, 100, {
      partial: false,
      now: NOW,
    });
    // The call failed with its give-back of 3 unanswered: its refund reads the journal, takes back 10.
    expect(await other.refundCharge(charge, null)).toBe(10);
    // The give-back's command arrives now, as after a backend that hung.
    expect(await store.giveBack(charge, 10, 3)).toBe(4);
    expect(await store.used('acc_late_give_back', 'lead_explores', NOW)).toBe(4);
  });

  it('keeps only the latest charges in the journal, however many are made', async () => {
    const [store] = stores as [QuotaCounters];
    const now = NOW;
    const charges = await Promise.all(
      Array.from({ length: CHARGE_JOURNAL_LENGTH + 20 }, () =>
        store.charge('acc_long_journal', 'lead_explores', 1, 10 * CHARGE_JOURNAL_LENGTH, {
          partial: false,
          now,
        }),
      ),
    );
    const journal = journalEntries(await counterOf('acc_long_journal'));
    expect(journal).toHaveLength(CHARGE_JOURNAL_LENGTH);
    const newest = parseChargeEntry(journal.at(-1) as string);
    const charge = charges.find((candidate) => candidate.chargeId === newest.id) as QuotaCharge & ChargeRef;
    expect(await store.refundCharge(charge, 1)).toBe(1);
    expect(await store.used('acc_long_journal', 'lead_explores', now)).toBe(CHARGE_JOURNAL_LENGTH + 19);
  });

  it('a busy process never pushes another process’s charges out of the journal', async () => {
    const [store, other] = stores as [QuotaCounters, QuotaCounters];
    const now = NOW;
    // A charge of a process cut off from MongoDB since: its refund waits, while another process
    // makes more charges of the same counter than a journal keeps.
    const waiting = {
      ...other.newCharge('acc_busy_neighbour', 'lead_explores', 10_000, now),
      chargeId: 'otherprocess1',
    };
    await other.charge('acc_busy_neighbour', 'lead_explores', 5, 10_000, {
      partial: false,
      now,
      ref: waiting,
    });
    for (let round = 0; round < 2; round++) {
      await Promise.all(
        Array.from({ length: CHARGE_JOURNAL_LENGTH }, () =>
          store.charge('acc_busy_neighbour', 'lead_explores', 1, 10_000, { partial: false, now }),
        ),
      );
    }
    expect(await other.refundCharge(waiting, null)).toBe(5);
    expect(await store.used('acc_busy_neighbour', 'lead_explores', now)).toBe(2 * CHARGE_JOURNAL_LENGTH);
    expect(Object.keys((await counterOf('acc_busy_neighbour'))?.charge_journals ?? {})).toHaveLength(2);
  });
});

describe('quotas without a limit, counted in each process', () => {
  let clients: MongoClient[];
  let stores: QuotaCounters[];
  // The processes' clock, moved by hand: how fresh a figure from MongoDB is decides what `used` shows.
  let clockMs = 0;

  beforeAll(async () => {
    // Two clients, as two server processes would have.
    clients = [new MongoClient(testBackends().mongodbUri), new MongoClient(testBackends().mongodbUri)];
    await Promise.all(clients.map((client) => client.connect()));
    stores = clients.map(
      (client) =>
        new QuotaCounters(new QuotaCountersStore(client.db(testBackends().mongoDb)), runLog(), () => clockMs),
    );
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });

  const stored = async (accountId: string) =>
    (
      await (clients[0] as MongoClient)
        .db(testBackends().mongoDb)
        .collection<CounterDoc>('quota_counters')
        .findOne({
          _id: (stores[0] as QuotaCounters).newCharge(accountId, 'lead_explores', null, NOW).counterId,
        })
    )?.used;

  it('300 simultaneous charges from two processes, some refunded or given back in part, land exactly once each', async () => {
    const now = NOW;
    const charges = await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        (stores[index % 2] as QuotaCounters).charge('acc_unlimited_race', 'lead_explores', 10, null, {
          partial: true,
          now,
        }),
      ),
    );
    expect(charges.every((charge) => charge.granted === 10 && charge.countedInProcess)).toBe(true);
    // A hundred calls fail and are refunded; a hundred pages come back 4 short; the others succeed
    // whole. A call's units are written only once it has succeeded.
    await Promise.all(
      charges.map(async (charge, index) => {
        const store = stores[index % 2] as QuotaCounters;
        if (index % 3 === 0) return store.refundCharge(charge, charge.granted);
        if (index % 3 === 1) {
          await store.giveBack(charge, charge.granted, 4);
          return store.settleCharge(charge, charge.granted - 4);
        }
        return store.settleCharge(charge, charge.granted);
      }),
    );
    const expected = 100 * 6 + 100 * 10;
    await Promise.all(stores.map((store) => store.writeCounts()));
    expect(await stored('acc_unlimited_race')).toBe(expected);
    // Each process shows the other's units once its own figure from MongoDB is no longer fresh.
    clockMs += STORED_FIGURE_FRESH_MS + 1;
    for (const store of stores)
      expect(await store.used('acc_unlimited_race', 'lead_explores', now)).toBe(expected);
  });

  it('reports used with the units of calls under way and not yet written, and writes a call’s units once it succeeds', async () => {
    const [store] = stores as [QuotaCounters];
    const now = NOW;
    const charge = (want: number) =>
      store.charge('acc_unlimited_later', 'lead_explores', want, null, { partial: false, now });
    // The first charge of a counter in a process waits to learn MongoDB's figure.
    const first = await charge(7);
    expect([first.used, await stored('acc_unlimited_later')]).toEqual([7, undefined]);
    const second = await charge(5);
    expect(await store.used('acc_unlimited_later', 'lead_explores', now)).toBe(12);
    store.settleCharge(first, 7);
    await store.refundCharge(second, 5);
    await store.writeCounts();
    expect([
      await store.used('acc_unlimited_later', 'lead_explores', now),
      await stored('acc_unlimited_later'),
    ]).toEqual([7, 7]);
  });

  it('a write retried after its answer was lost adds nothing twice', async () => {
    const counters = (clients[0] as MongoClient)
      .db(testBackends().mongoDb)
      .collection<CounterDoc>('quota_counters');
    const id = (stores[0] as QuotaCounters).newCharge(
      'acc_unlimited_retry',
      'lead_explores',
      null,
      NOW,
    ).counterId;
    const fields = { expires_at: new Date(Date.now() + 86_400_000) };
    expect(await addUnboundedOnce(counters, id, 9, 'write-a', fields)).toBe(9);
    expect(await addUnboundedOnce(counters, id, 9, 'write-a', fields)).toBe(9);
    expect(await addUnboundedOnce(counters, id, -2, 'write-b', fields)).toBe(7);
    expect(await addUnboundedOnce(counters, id, -2, 'write-b', fields)).toBe(7);
    // A give-back written to a counter that does not exist takes nothing and creates nothing.
    const missing = (stores[0] as QuotaCounters).newCharge(
      'acc_unlimited_none',
      'lead_explores',
      null,
      NOW,
    ).counterId;
    expect(await addUnboundedOnce(counters, missing, -3, 'write-c', fields)).toBe(0);
    expect(await counters.findOne({ _id: missing })).toBeNull();
  });
});

/** The charge the latest `charge_beside_failure` call started, and a way to charge again on its meter. */
let besideFailure: { charge: Promise<unknown>; chargeAgain: () => Promise<unknown> } | undefined;

/** A stand-in tool that charges lead explores, `want` of them, as `handler` does it. */
function leadChargingTool(
  name: string,
  description: string,
  handler: (want: number, meter: ToolContext['meter']) => Promise<Record<string, never>>,
) {
  return defineTool({
    name,
    title: name,
    description,
    inputSchema: z.strictObject({ want: z.int().min(1).max(100) }),
    outputSchema: z.object({}),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: null,
    access: 'paid',
    cost: { quota: 'lead_explores', per: 'call' },
    handler: ({ want }, { meter }) => handler(want, meter),
  });
}

/** Starts a charge, and a step beside it fails first, as a lookup run with Promise.all can. */
const chargeBesideFailure = leadChargingTool(
  'charge_beside_failure',
  'Charges `want` lead explores while a step beside the charge fails.',
  async (want, meter) => {
    const charge = meter.charge('lead_explores', want);
    besideFailure = { charge, chargeAgain: () => meter.charge('lead_explores', want) };
    await Promise.all([charge, Promise.reject(new Unavailable('search'))]);
    return {};
  },
);

describe('metering through tools', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ tools: [...fakeTools, chargeBesideFailure], clock: () => NOW });
  });

  afterAll(async () => {
    await server?.close();
  });

  const withLeadQuota = async (limit: number | null, plan: 'growth' | 'scale' = 'growth') => {
    const created = await createAccountWithKey(server.services, { plan });
    await server.services.accounts.update(
      created.account._id,
      { quota_overrides: { lead_explores: limit } },
      new Date(),
    );
    return created;
  };

  it('charges, shortens to what remains, then refuses with quota_exceeded', async () => {
    const { key } = await withLeadQuota(25);
    const first = await callToolRaw(server.url, key, 'charge_leads', { want: 10 });
    expect(first.structuredContent).toEqual({
      granted: 10,
      quota: { used: 10, limit: 25, remaining: 15, resets_at: expect.stringMatching(/T00:00:00\.000Z$/) },
    });
    const shortened = await callToolRaw(server.url, key, 'charge_leads', { want: 20, partial: true });
    expect(shortened.structuredContent).toMatchObject({ granted: 15, quota: { used: 25, remaining: 0 } });
    const refused = toolError(await callToolRaw(server.url, key, 'charge_leads', { want: 1, partial: true }));
    expect(refused).toMatchObject({
      code: 'quota_exceeded',
      details: { quota: 'lead_explores', resets_at: expect.stringMatching(/T00:00:00\.000Z$/) },
    });
  });

  it('refuses an exact charge that does not fit, charging nothing', async () => {
    const { key, account } = await withLeadQuota(5);
    expect(toolError(await callToolRaw(server.url, key, 'charge_leads', { want: 6 })).code).toBe(
      'quota_exceeded',
    );
    expect(await server.services.quotaCounters.used(account._id, 'lead_explores', NOW)).toBe(0);
  });

  it('with nothing left, even a charge of zero is quota_exceeded', async () => {
    const { key } = await withLeadQuota(0);
    expect(toolError(await callToolRaw(server.url, key, 'charge_leads', { want: 0 })).code).toBe(
      'quota_exceeded',
    );
  });

  it('refunds the charges of a call that fails', async () => {
    const { key, account } = await withLeadQuota(25);
    await callToolRaw(server.url, key, 'charge_leads', { want: 4 });
    const failed = toolError(await callToolRaw(server.url, key, 'charge_leads', { want: 7, fail: true }));
    expect(failed).toMatchObject({ code: 'unavailable', details: { retryable: true } });
    expect(await server.services.quotaCounters.used(account._id, 'lead_explores', NOW)).toBe(4);
  });

  it('refunds a charge still under way when the call fails, once it settles', async () => {
    const { key, account } = await withLeadQuota(25);
    const failed = toolError(await callToolRaw(server.url, key, 'charge_beside_failure', { want: 7 }));
    expect(failed).toMatchObject({ code: 'unavailable', details: { retryable: true } });
    await besideFailure?.charge.catch(() => undefined);
    expect(await server.services.quotaCounters.used(account._id, 'lead_explores', NOW)).toBe(0);
    // The call is over: its meter charges nothing more.
    await expect(besideFailure?.chargeAgain()).rejects.toThrow();
    expect(await server.services.quotaCounters.used(account._id, 'lead_explores', NOW)).toBe(0);
  });

  it('does not charge a call with a bad argument', async () => {
    const { key, account } = await withLeadQuota(25);
    const error = toolError(await callToolRaw(server.url, key, 'charge_leads', { want: 500 }));
    expect(error).toMatchObject({ code: 'invalid_argument', details: { field: 'want' } });
    expect(await server.services.quotaCounters.used(account._id, 'lead_explores', NOW)).toBe(0);
  });

  it('counts unlimited quotas and reports limit and remaining as null', async () => {
    const { key } = await createAccountWithKey(server.services, { plan: 'scale' });
    await callToolRaw(server.url, key, 'charge_leads', { want: 60 });
    const second = await callToolRaw(server.url, key, 'charge_leads', { want: 40 });
    expect(second.structuredContent).toMatchObject({
      granted: 40,
      quota: { used: 100, limit: null, remaining: null },
    });
  });

  it('refuses a charge against a quota the tool did not declare', async () => {
    const { key } = await createAccountWithKey(server.services);
    expect(toolError(await callToolRaw(server.url, key, 'miscounting')).code).toBe('internal');
  });
});

/** Charges its page, then waits for a search that never answers, as over a backend that hangs. */
const chargeThenHang = leadChargingTool(
  'charge_then_hang',
  'Charges `want` lead explores, then never finishes.',
  async (want, meter) => {
    await meter.charge('lead_explores', want);
    return new Promise<Record<string, never>>(() => undefined);
  },
);

describe('a call whose backend never answers', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      tools: [chargeThenHang],
      clock: () => NOW,
      config: { BACKEND_TIMEOUT_MS: '300' },
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  // No clock is read: without the call's own deadline this call would never answer, and the test
  // would end at its timeout.
  it('answers unavailable once BACKEND_TIMEOUT_MS has passed, and keeps nothing of what it charged', async () => {
    const { key, account } = await createAccountWithKey(server.services);
    await server.services.accounts.update(account._id, { quota_overrides: { lead_explores: 50 } }, NOW);
    const failed = toolError(await callToolRaw(server.url, key, 'charge_then_hang', { want: 7 }));
    expect(failed).toMatchObject({ code: 'unavailable', details: { retryable: true } });
    expect(await server.services.quotaCounters.used(account._id, 'lead_explores', NOW)).toBe(0);
  });
});

describe('calls per minute', () => {
  // Half a minute into a window, so the answer is exactly 30 seconds.
  const windowMiddle = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
  let servers: [TestServer, TestServer];

  beforeAll(async () => {
    servers = [
      await startTestServer({ tools: fakeTools, clock: () => windowMiddle }),
      await startTestServer({ tools: fakeTools, clock: () => windowMiddle }),
    ];
  });

  afterAll(async () => {
    await Promise.all(servers?.map((server) => server.close()) ?? []);
  });

  it('answers rate_limited with retry_after_seconds past the budget, without charging quota', async () => {
    const [server] = servers;
    const { key, account } = await createAccountWithKey(server.services, { callsPerMinute: 3 });
    for (let call = 0; call < 3; call++) {
      expect((await callToolRaw(server.url, key, 'charge_leads', { want: 1 })).isError).toBeFalsy();
    }
    const refused = toolError(await callToolRaw(server.url, key, 'charge_leads', { want: 1 }));
    expect(refused).toMatchObject({
      code: 'rate_limited',
      details: { retry_after_seconds: 30, calls_per_minute: 3 },
    });
    expect(await server.services.quotaCounters.used(account._id, 'lead_explores', windowMiddle)).toBe(3);
  });

  it('is one budget across server processes', async () => {
    const { key } = await createAccountWithKey(servers[0].services, { callsPerMinute: 4 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, call) =>
        callToolRaw((servers[call % 2] as TestServer).url, key, 'echo', { text: 'x' }),
      ),
    );
    expect(answers.filter((answer) => !answer.isError)).toHaveLength(4);
    expect(answers.filter((answer) => answer.isError).map((answer) => toolError(answer).code)).toEqual(
      Array(6).fill('rate_limited'),
    );
  });
});
