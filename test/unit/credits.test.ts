import { describe, expect, it } from 'vitest';
import { describeAccountUsage } from '../../src/billing/account-usage.js';
import type { Account } from '../../src/stores/accounts.js';

const at = (iso: string) => new Date(iso);

describe('account usage object', () => {
  const now = at('2026-11-01T12:00:00Z');
  const account = (changes: Partial<Account> = {}): Account => ({
    _id: 'acc_1',
    email: 'a@example.test',
    plan: 'starter',
    subscription_status: 'active',
    quota_overrides: {},
    calls_per_minute_override: null,
    credits_remaining: 60,
    credits_resets_at: at('2026-11-15T10:00:00Z'),
    credit_claims: [],
    created_at: at('2026-10-15T10:00:00Z'),
    updated_at: at('2026-10-15T10:00:00Z'),
    ...changes,
  });
  const apiKey = {
    type: 'api_key' as const,
    scopes: ['leads:read', 'account:read', 'leads:enrich'] as (
      | 'leads:read'
      | 'account:read'
      | 'leads:enrich'
    )[],
  };
  const noUse = { lead_explores: 0, company_explores: 0, insight_queries: 0, enrichments: 0 };

  it('has exactly the documented fields of get_account_usage', () => {
    const usage = describeAccountUsage({ account: account(), credential: apiKey, used: noUse, now });
    expect(usage).toEqual({
      plan: 'starter',
      subscription_status: 'active',
      credential: apiKey,
      enrichment_credits: { remaining: 60, monthly_allowance: 100, resets_at: '2026-11-15T10:00:00.000Z' },
      daily_quotas: {
        lead_explores: { used: 0, limit: 500, remaining: 500, resets_at: '2026-11-02T00:00:00.000Z' },
        company_explores: { used: 0, limit: 200, remaining: 200, resets_at: '2026-11-02T00:00:00.000Z' },
        insight_queries: { used: 0, limit: 50, remaining: 50, resets_at: '2026-11-02T00:00:00.000Z' },
        enrichments: { used: 0, limit: 300, remaining: 300, resets_at: '2026-11-02T00:00:00.000Z' },
      },
      calls_per_minute: 30,
      notes: [],
    });
  });

  it('applies overrides and reports unlimited quotas as null', () => {
    const usage = describeAccountUsage({
      account: account({
        plan: 'scale',
        quota_overrides: { insight_queries: null },
        calls_per_minute_override: 500,
      }),
      credential: apiKey,
      used: { ...noUse, lead_explores: 1234 },
      now,
    });
    expect(usage.daily_quotas.lead_explores).toMatchObject({ used: 1234, limit: null, remaining: null });
    expect(usage.daily_quotas.insight_queries).toMatchObject({ limit: null, remaining: null });
    expect(usage.calls_per_minute).toBe(500);
  });

  it('says why access is refused, and only that, for a free or lapsed account', () => {
    const free = describeAccountUsage({
      account: account({ plan: 'free' }),
      credential: apiKey,
      used: noUse,
      now,
    });
    expect(free.notes).toEqual([
      expect.stringMatching(/^MCP access is refused: The account is on the free plan\./),
    ]);
    const lapsed = describeAccountUsage({
      account: account({ subscription_status: 'past_due' }),
      credential: apiKey,
      used: noUse,
      now,
    });
    expect(lapsed.notes).toEqual([expect.stringMatching(/subscription is past_due/)]);
  });

  it('warns about credits, quotas used up or nearly, and a missing leads:enrich scope', () => {
    const usage = describeAccountUsage({
      account: account({ credits_remaining: 0 }),
      credential: { type: 'oauth', scopes: ['leads:read'] },
      used: { ...noUse, lead_explores: 500, company_explores: 160, insight_queries: 39 },
      now,
    });
    expect(usage.notes).toEqual([
      expect.stringMatching(/^No enrichment credits are left: .* renew on 2026-11-15/),
      expect.stringMatching(/^The daily lead_explores quota is used up \(500 of 500\)/),
      expect.stringMatching(/^The daily company_explores quota is nearly used up: 40 of 200 left/),
      expect.stringMatching(/lacks the scope leads:enrich/),
    ]);
    const few = describeAccountUsage({
      account: account({ credits_remaining: 7 }),
      credential: apiKey,
      used: noUse,
      now,
    });
    expect(few.notes).toEqual(['Only 7 enrichment credits are left until they renew on 2026-11-15.']);
  });
});
