import type { Scope } from '../auth/scopes.js';
import { type QuotaState, quotaState } from '../metering/quota-state.js';
import { accessRefusal, effectivePlanLimits, QUOTA_KEYS, type QuotaKey } from '../plans.js';
import type { Account } from '../stores/accounts.js';
import { creditsNow } from './credits.js';
import { type EnrichmentDeps, recoverAbandonedClaims } from './enrich.js';

/** What `get_account_usage` and `admin usage` return (docs/enrichment.md, "get_account_usage"). */
export interface AccountUsage {
  plan: Account['plan'];
  subscription_status: Account['subscription_status'];
  credential: { type: 'api_key' | 'oauth'; scopes: Scope[] };
  enrichment_credits: { remaining: number; monthly_allowance: number; resets_at: string };
  daily_quotas: Record<QuotaKey, QuotaState>;
  calls_per_minute: number;
  notes: string[];
}

/** From this share of a daily quota on, `notes` warns that it is nearly used up. */
const NEARLY_USED_SHARE = 0.8;
/** From this share of the monthly allowance down, `notes` warns that credits run low. */
const FEW_CREDITS_SHARE = 0.1;

/**
 * The usage object, from the account (credits already renewed), today's counters and the
 * credential. Pure, so the notes can be tested without a database.
 */
export function describeAccountUsage(input: {
  account: Account;
  credential: AccountUsage['credential'];
  used: Record<QuotaKey, number>;
  now: Date;
}): AccountUsage {
  const { account, credential, used, now } = input;
  const limits = effectivePlanLimits(account);
  const dailyQuotas = Object.fromEntries(
    QUOTA_KEYS.map((key) => [key, quotaState(used[key], limits.daily_quotas[key], now)]),
  ) as Record<QuotaKey, QuotaState>;
  const credits = {
    remaining: account.credits_remaining,
    monthly_allowance: limits.monthly_credits,
    resets_at: account.credits_resets_at.toISOString(),
  };
  return {
    plan: account.plan,
    subscription_status: account.subscription_status,
    credential: { type: credential.type, scopes: [...credential.scopes] },
    enrichment_credits: credits,
    daily_quotas: dailyQuotas,
    calls_per_minute: limits.calls_per_minute,
    notes: usageNotes(account, credential, credits, dailyQuotas),
  };
}

/**
 * Reads what the usage object needs. First it gives back the charges of enrichments abandoned by
 * failed calls and renews due credits, so the numbers shown are the ones the next call would meet.
 */
export async function readAccountUsage(
  stores: EnrichmentDeps,
  account: Account,
  credential: AccountUsage['credential'],
  now: Date,
): Promise<AccountUsage> {
  await recoverAbandonedClaims(stores, account._id);
  const [current, ...counts] = await Promise.all([
    creditsNow(stores.accounts, account, now),
    ...QUOTA_KEYS.map((key) => stores.quotaCounters.used(account._id, key, now)),
  ]);
  const used = Object.fromEntries(QUOTA_KEYS.map((key, index) => [key, counts[index] ?? 0])) as Record<
    QuotaKey,
    number
  >;
  return describeAccountUsage({ account: current, credential, used, now });
}

function usageNotes(
  account: Account,
  credential: AccountUsage['credential'],
  credits: AccountUsage['enrichment_credits'],
  dailyQuotas: Record<QuotaKey, QuotaState>,
): string[] {
  const refusal = accessRefusal(account);
  if (refusal !== null) {
    // Nothing else matters until access is restored, and the zero quotas of a free plan would only add noise.
    return [
      `MCP access is refused: ${refusal} Only get_account_usage and get_filter_options answer; the other tools return subscription_required until the account has a paid plan with an active or trialing subscription.`,
    ];
  }
  const notes: string[] = [];
  const renewal = credits.resets_at.slice(0, 10);
  if (credits.remaining === 0) {
    notes.push(
      `No enrichment credits are left: enrich_lead answers insufficient_credits until they renew on ${renewal}. Leads already unlocked stay free.`,
    );
  } else if (credits.remaining <= credits.monthly_allowance * FEW_CREDITS_SHARE) {
    notes.push(`Only ${credits.remaining} enrichment credits are left until they renew on ${renewal}.`);
  }
  for (const key of QUOTA_KEYS) {
    const { used, limit, remaining, resets_at } = dailyQuotas[key];
    if (limit === null || remaining === null) continue;
    if (remaining === 0) {
      notes.push(`The daily ${key} quota is used up (${used} of ${limit}); it resets at ${resets_at}.`);
    } else if (used >= limit * NEARLY_USED_SHARE) {
      notes.push(
        `The daily ${key} quota is nearly used up: ${remaining} of ${limit} left; it resets at ${resets_at}.`,
      );
    }
  }
  if (!credential.scopes.includes('leads:enrich')) {
    notes.push(
      'This credential lacks the scope leads:enrich, so enrich_lead is refused: use an API key with that scope, or sign in again granting it.',
    );
  }
  return notes;
}
