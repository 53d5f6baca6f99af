import { listInWords } from './domain/words.js';

/**
 * The plan table: what each plan allows per day, per month and per minute. docs/plans.md explains
 * the numbers; change them here and there together.
 */
export const PLAN_NAMES = ['free', 'starter', 'growth', 'scale'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The `daily_quotas` keys of `get_account_usage`. */
export const QUOTA_KEYS = ['lead_explores', 'company_explores', 'insight_queries', 'enrichments'] as const;
export type QuotaKey = (typeof QUOTA_KEYS)[number];

/** One unit of each quota, as a sentence names it. */
export const QUOTA_UNIT_NAMES: Readonly<Record<QuotaKey, string>> = {
  lead_explores: 'lead explore',
  company_explores: 'company explore',
  insight_queries: 'insight query',
  enrichments: 'enrichment',
};

/** `null` means unlimited. */
export type QuotaLimit = number | null;
type DailyQuotas = Record<QuotaKey, QuotaLimit>;

export interface Plan {
  /** Only paid plans reach the tools beyond `get_account_usage` and `get_filter_options`. */
  paid: boolean;
  daily_quotas: DailyQuotas;
  monthly_credits: number;
  calls_per_minute: number;
}

/** Enrichments are 300 a day on every plan that can enrich (docs/plans.md). */
const ENRICHMENTS_PER_DAY = 300;

export const PLANS: Readonly<Record<PlanName, Plan>> = {
  free: {
    paid: false,
    daily_quotas: { lead_explores: 0, company_explores: 0, insight_queries: 0, enrichments: 0 },
    monthly_credits: 0,
    calls_per_minute: 10,
  },
  starter: {
    paid: true,
    daily_quotas: {
      lead_explores: 500,
      company_explores: 200,
      insight_queries: 50,
      enrichments: ENRICHMENTS_PER_DAY,
    },
    monthly_credits: 100,
    calls_per_minute: 30,
  },
  growth: {
    paid: true,
    daily_quotas: {
      lead_explores: 2500,
      company_explores: 1000,
      insight_queries: 250,
      enrichments: ENRICHMENTS_PER_DAY,
    },
    monthly_credits: 500,
    calls_per_minute: 60,
  },
  scale: {
    paid: true,
    daily_quotas: {
      lead_explores: null,
      company_explores: null,
      insight_queries: 1000,
      enrichments: ENRICHMENTS_PER_DAY,
    },
    monthly_credits: 2000,
    calls_per_minute: 120,
  },
};

/** The parts of an account that decide its limits. */
export interface AccountPlanFields {
  plan: PlanName;
  subscription_status: SubscriptionStatus;
  quota_overrides: Partial<DailyQuotas>;
  calls_per_minute_override: number | null;
}

export interface EffectiveLimits {
  plan: PlanName;
  paid: boolean;
  daily_quotas: DailyQuotas;
  monthly_credits: number;
  calls_per_minute: number;
}

/** The plan's limits with the account's own overrides (set by an operator) applied. */
export function effectivePlanLimits(account: AccountPlanFields): EffectiveLimits {
  const plan = PLANS[account.plan];
  return {
    plan: account.plan,
    paid: plan.paid,
    daily_quotas: { ...plan.daily_quotas, ...account.quota_overrides },
    monthly_credits: plan.monthly_credits,
    calls_per_minute: account.calls_per_minute_override ?? plan.calls_per_minute,
  };
}

const STATUSES_WITH_ACCESS: readonly SubscriptionStatus[] = ['active', 'trialing'];

/** What the tools beyond `get_account_usage` and `get_filter_options` need, in words. */
export const ACCESS_NEEDED = `a paid plan (${listInWords(
  PLAN_NAMES.filter((name) => PLANS[name].paid),
  'or',
)}) with an ${listInWords(STATUSES_WITH_ACCESS, 'or')} subscription`;

/** Why the account may not use paid tools, or `null` when it may. */
export function accessRefusal(account: AccountPlanFields): string | null {
  if (!PLANS[account.plan].paid) return `The account is on the ${account.plan} plan.`;
  if (!STATUSES_WITH_ACCESS.includes(account.subscription_status)) {
    return `The account's subscription is ${account.subscription_status}.`;
  }
  return null;
}
