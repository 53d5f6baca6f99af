import { describe, expect, it } from 'vitest';
import { listInWords } from '../../src/domain/words.js';
import {
  ACCESS_NEEDED,
  type AccountPlanFields,
  accessRefusal,
  effectivePlanLimits,
  PLAN_NAMES,
  PLANS,
  QUOTA_KEYS,
} from '../../src/plans.js';

const account = (fields: Partial<AccountPlanFields> = {}): AccountPlanFields => ({
  plan: 'growth',
  subscription_status: 'active',
  quota_overrides: {},
  calls_per_minute_override: null,
  ...fields,
});

describe('plan table', () => {
  it('gives every plan all four daily quotas, credits and a call rate', () => {
    for (const name of PLAN_NAMES) {
      expect(Object.keys(PLANS[name].daily_quotas).sort()).toEqual([...QUOTA_KEYS].sort());
      expect(PLANS[name].calls_per_minute).toBeGreaterThan(0);
    }
  });

  it('keeps MCP access to paid plans, with 300 enrichments a day on each', () => {
    expect(PLANS.free.paid).toBe(false);
    for (const name of ['starter', 'growth', 'scale'] as const) {
      expect(PLANS[name].paid).toBe(true);
      expect(PLANS[name].daily_quotas.enrichments).toBe(300);
    }
  });

  it('gives scale unlimited explores', () => {
    expect(PLANS.scale.daily_quotas.lead_explores).toBeNull();
    expect(PLANS.scale.daily_quotas.company_explores).toBeNull();
  });

  it('grows with the plan', () => {
    const starter = PLANS.starter;
    const growth = PLANS.growth;
    expect(growth.monthly_credits).toBeGreaterThan(starter.monthly_credits);
    expect(growth.calls_per_minute).toBeGreaterThan(starter.calls_per_minute);
    expect(growth.daily_quotas.lead_explores).toBeGreaterThan(starter.daily_quotas.lead_explores ?? 0);
  });
});

describe('effectivePlanLimits', () => {
  it('is the plan when nothing is overridden', () => {
    const limits = effectivePlanLimits(account());
    expect(limits.daily_quotas).toEqual(PLANS.growth.daily_quotas);
    expect(limits.calls_per_minute).toBe(PLANS.growth.calls_per_minute);
  });

  it('applies quota overrides key by key, including unlimited', () => {
    const limits = effectivePlanLimits(
      account({ quota_overrides: { lead_explores: 7, insight_queries: null } }),
    );
    expect(limits.daily_quotas).toEqual({
      ...PLANS.growth.daily_quotas,
      lead_explores: 7,
      insight_queries: null,
    });
  });

  it('applies the calls-per-minute override', () => {
    expect(effectivePlanLimits(account({ calls_per_minute_override: 3 })).calls_per_minute).toBe(3);
  });
});

describe('accessRefusal', () => {
  it('lets paid plans with an active or trialing subscription through', () => {
    expect(accessRefusal(account())).toBeNull();
    expect(accessRefusal(account({ plan: 'starter', subscription_status: 'trialing' }))).toBeNull();
  });

  it('refuses the free plan and lapsed subscriptions, saying why', () => {
    expect(accessRefusal(account({ plan: 'free' }))).toMatch(/free plan/);
    expect(accessRefusal(account({ subscription_status: 'canceled' }))).toMatch(/canceled/);
    expect(accessRefusal(account({ subscription_status: 'past_due' }))).toMatch(/past_due/);
  });
});

describe('ACCESS_NEEDED', () => {
  it('names the paid plans and the statuses with access, from the table', () => {
    expect(ACCESS_NEEDED).toBe(
      'a paid plan (starter, growth or scale) with an active or trialing subscription',
    );
  });
});

describe('listInWords', () => {
  it('joins as a sentence does', () => {
    expect(listInWords([], 'or')).toBe('');
    expect(listInWords(['a'], 'or')).toBe('a');
    expect(listInWords(['a', 'b'], 'and')).toBe('a and b');
    expect(listInWords(['a', 'b', 'c'], 'or')).toBe('a, b or c');
  });
});
