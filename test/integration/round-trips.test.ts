import type { CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS, type QuotaKey } from '../../src/plans.js';
import { tools } from '../../src/tools/registry.js';
import { callToolRaw } from '../support/mcp-client.js';
import { SEEDED_NOW } from '../support/seeded-data.js';
import {
  createAccountWithKey,
  manualCacheClock,
  startTestServer,
  type TestServer,
} from '../support/test-server.js';

/**
 * What a call costs in MongoDB round trips, counted from the driver's own command events on the
 * server's client (docs/performance.md, "MongoDB round trips per call"). The server's clocks are
 * stopped, so nothing ages between calls: the counts are those of calls made within one second of
 * each other, by a process whose caches and rate-limit lease are warm.
 */

/** The driver's own traffic, not the call's: connection handshakes and liveness checks. */
const DRIVER_COMMANDS = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'endSessions', 'saslStart']);

describe('MongoDB round trips per call on the hot path', () => {
  let server: TestServer;
  /** Keys of accounts that have unlocked leads before, whose cards need the lookup: the costlier case. */
  const keys: Partial<Record<'growth' | 'scale', string>> = {};
  let leadId: string;
  let companyId: string;

  beforeAll(async () => {
    server = await startTestServer({
      tools,
      clock: () => SEEDED_NOW,
      cacheClock: manualCacheClock().now,
      // A metrics port is what turns on the driver's command events, which this test counts.
      config: { METRICS_PORT: '0' },
    });
    expect(server.services.mongo.client.options.monitorCommands).toBe(true);
    for (const plan of ['growth', 'scale'] as const) {
      const { account, key } = await createAccountWithKey(server.services, { plan, callsPerMinute: 100_000 });
      await server.services.accounts.noteUnlocks(account._id);
      keys[plan] = key;
    }
    const page = (await callToolRaw(server.url, keys.growth ?? '', 'search_leads', { page_size: 25 }))
      .structuredContent as {
      leads: { id: string; company: { id: string | null } }[];
    };
    const profiled = page.leads.find((lead) => lead.company.id !== null);
    leadId = profiled?.id ?? '';
    companyId = profiled?.company.id ?? '';
  });

  afterAll(async () => {
    await server?.close();
  });

  /** The commands the server sent MongoDB while `call` ran, as "name collection". */
  async function commandsDuring(call: () => Promise<unknown>): Promise<string[]> {
    const sent: string[] = [];
    const record = (event: CommandStartedEvent) => {
      if (DRIVER_COMMANDS.has(event.commandName)) return;
      sent.push(`${event.commandName} ${String(event.command[event.commandName])}`);
    };
    const { client } = server.services.mongo;
    client.on('commandStarted', record);
    try {
      await call();
    } finally {
      client.off('commandStarted', record);
    }
    return sent;
  }

  /**
   * The commands of one call made after an identical one has warmed everything up, and after the
   * units that call counted in the process (quotas without a limit) were written, as they are in
   * the background: written now, so that no such write falls within the call measured (a call's
   * own units are written only after it, WRITE_COUNTS_AFTER_MS later).
   */
  async function warmCallCommands(
    key: string,
    name: string,
    args: Record<string, unknown>,
  ): Promise<string[]> {
    const call = async () => {
      const result = await callToolRaw(server.url, key, name, args);
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    };
    await call();
    await server.services.quotaCounters.writeCounts();
    return commandsDuring(call);
  }

  const CHARGE = 'findAndModify quota_counters';
  const UNLOCKS = 'find unlocks';
  const metered: [string, () => Record<string, unknown>, string[]][] = [
    ['search_leads', () => ({ page_size: 10 }), [CHARGE, UNLOCKS]],
    ['search_companies', () => ({ page_size: 5 }), [CHARGE]],
    ['get_market_insights', () => ({ group_by: 'city' }), [CHARGE]],
    ['get_lead', () => ({ lead_id: leadId }), [CHARGE, UNLOCKS]],
    ['get_company', () => ({ company_id: companyId }), [CHARGE, UNLOCKS]],
  ];

  it.each(
    metered,
  )('%s with a daily limit: at most two, the charge and, where the result shows leads, the unlock lookup', async (name, args, expected) => {
    const commands = await warmCallCommands(keys.growth ?? '', name, args());
    expect(commands.length).toBeLessThanOrEqual(2);
    expect(commands.sort()).toEqual([...expected].sort());
  });

  it.each(
    metered,
  )('%s on Scale: no charge for a quota without a limit (counted in the process), the rest as with one', async (name, args, expected) => {
    const unlimited = PLANS.scale.daily_quotas[meteredQuotaOf(name)] === null;
    const commands = await warmCallCommands(keys.scale ?? '', name, args());
    expect(commands.sort()).toEqual(expected.filter((command) => !(unlimited && command === CHARGE)).sort());
  });

  it.each([
    ['search_signals', {}],
    ['get_filter_options', {}],
  ])('%s, unmetered: none at all', async (name, args) => {
    expect(await warmCallCommands(keys.growth ?? '', name, args)).toEqual([]);
  });

  it.each([
    ['search_leads', { page_size: 10 }],
    ['get_company', null],
  ])('%s for an account that has never unlocked a lead: only the charge', async (name, args) => {
    const { key: freshKey } = await createAccountWithKey(server.services, {
      plan: 'growth',
      callsPerMinute: 100_000,
    });
    const call = async () => callToolRaw(server.url, freshKey, name, args ?? { company_id: companyId });
    await call();
    expect(await commandsDuring(call)).toEqual([CHARGE]);
  });

  it('an empty page looks up no unlocks; giving back its reservation is the second round trip', async () => {
    const commands = await warmCallCommands(keys.growth ?? '', 'search_leads', { title: 'zqxjwv' });
    expect(commands).toEqual([CHARGE, CHARGE]);
  });
});

/** The quota a metered tool charges, as the tool declares it. */
function meteredQuotaOf(name: string): QuotaKey {
  const quota = tools.find((tool) => tool.name === name)?.cost?.quota;
  if (!quota) throw new Error(`${name} is not metered`);
  return quota;
}
