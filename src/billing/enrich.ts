/**
 * Charging for `enrich_lead`: one credit and one enrichment per (account, lead), exactly once, never
 * on failure and never past a limit, across processes and without transactions. A claim on the
 * unlock journals both charges so that they are reversed together; the steps, and why every
 * interleaving ends right, are in docs/enrichment.md.
 */
import { randomUUID } from 'node:crypto';
import { DomainError, InsufficientCredits, InvalidArgument, Unavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import type { QuotaCounters } from '../metering/quota-counters.js';
import { type QuotaState, quotaExhausted, quotaState } from '../metering/quota-state.js';
import type { Metrics } from '../metrics.js';
import type { EffectiveLimits } from '../plans.js';
import type { Account, AccountsStore } from '../stores/accounts.js';
import type { PendingClaim, UnlocksStore } from '../stores/unlocks.js';
import { creditsNow } from './credits.js';

/** A claim older than this belongs to a call that died: every step takes milliseconds, and a backend
 * call gives up after BACKEND_TIMEOUT_MS (at most 60 s, 2 s by default). */
export const STALE_CLAIM_MS = 10_000;
/** Waiting for another call's claim never lasts longer than recovering it would. */
const GIVE_UP_WAITING_MS = 2 * STALE_CLAIM_MS;
const FIRST_POLL_MS = 20;
const LONGEST_POLL_MS = 250;

export interface EnrichmentDeps {
  accounts: AccountsStore;
  unlocks: UnlocksStore;
  quotaCounters: QuotaCounters;
  logger: Logger;
  /** Counts credits and enrichments charged and given back; absent in the admin CLI, which serves none. */
  metrics?: Metrics;
  /** Real time, for the age of claims; the call's `now` may be a test's pinned clock. */
  wallClock?: () => Date;
}

export interface EnrichmentRequest {
  account: Account;
  limits: EffectiveLimits;
  lead: { id: string; is_open: boolean };
  /** The call's clock reading: the day of the enrichment counter and the credit renewal. */
  now: Date;
  /**
   * Aborted once the call has been answered with an error (its deadline passed): no step is taken
   * after that, and an unlock that lands anyway is left free, its charges reversed.
   */
  signal?: AbortSignal;
}

export interface EnrichmentOutcome {
  alreadyEnriched: boolean;
  chargedCredits: 0 | 1;
  /** Credits left after this call. */
  credits: number;
  /** Today's `enrichments` quota after this call. */
  enrichments: QuotaState;
}

/** Unlocks `lead` for the account, charging one credit unless it is already unlocked. */
export async function unlockLead(
  deps: EnrichmentDeps,
  request: EnrichmentRequest,
): Promise<EnrichmentOutcome> {
  const { account, lead } = request;
  const wallClock = deps.wallClock ?? (() => new Date());
  const startedAt = wallClock().getTime();
  await recoverAbandonedClaims(deps, account._id);
  let pollMs = FIRST_POLL_MS;
  for (;;) {
    const unlock = await deps.unlocks.find(account._id, lead.id);
    if (unlock?.state === 'done') return alreadyEnriched(deps, request);
    if (!lead.is_open) {
      throw new InvalidArgument(
        'lead_id',
        'This role has closed, so its details can no longer be unlocked. search_leads finds open roles like it.',
        { reason: 'role_closed' },
      );
    }
    if (unlock === null) {
      const claimId = randomUUID();
      const claimed = await deps.unlocks.claim(account._id, lead.id, claimId, {
        now: request.now,
        wallClock: wallClock(),
      });
      if (claimed) {
        const outcome = await chargeUnderClaim(deps, request, claimId);
        if (outcome !== null) return outcome;
      }
      continue;
    }
    const claimAgeMs = wallClock().getTime() - (unlock.claimed_at?.getTime() ?? 0);
    if (claimAgeMs >= STALE_CLAIM_MS) {
      await reverseClaim(deps, unlock);
      continue;
    }
    if (wallClock().getTime() - startedAt > GIVE_UP_WAITING_MS) {
      throw new DomainError(
        'unavailable',
        'Another call is still unlocking this lead. Nothing was charged; retry in a few seconds.',
        { retryable: true },
      );
    }
    // Another call holds the claim and will be done in moments: look again shortly.
    await sleep(pollMs * (0.5 + Math.random()));
    pollMs = Math.min(LONGEST_POLL_MS, pollMs * 1.5);
  }
}

async function alreadyEnriched(deps: EnrichmentDeps, request: EnrichmentRequest): Promise<EnrichmentOutcome> {
  const { account, limits, now } = request;
  const [current, used] = await Promise.all([
    creditsNow(deps.accounts, account, now),
    deps.quotaCounters.used(account._id, 'enrichments', now),
  ]);
  return {
    alreadyEnriched: true,
    chargedCredits: 0,
    credits: current.credits_remaining,
    enrichments: quotaState(used, limits.daily_quotas.enrichments, now),
  };
}

/**
 * Steps 4 to 7 for the holder of `claimId`. Returns `null` when the claim was lost before it could
 * be completed (recovered as abandoned, or turned into an app unlock): everything taken has been
 * given back and the caller starts again.
 */
async function chargeUnderClaim(
  deps: EnrichmentDeps,
  request: EnrichmentRequest,
  claimId: string,
): Promise<EnrichmentOutcome | null> {
  const { account, limits, lead, now } = request;
  const claim: PendingClaim = {
    account_id: account._id,
    lead_id: lead.id,
    claim_id: claimId,
    claimed_at: null,
    created_at: now,
  };
  const limit = limits.daily_quotas.enrichments;
  const undo = () => undoCharge(deps, claim);
  // The call has been answered with an error meanwhile: nothing it does may stay charged.
  const stillWanted = () => {
    if (request.signal?.aborted) throw new Unavailable();
  };
  try {
    stillWanted();
    const reserved = await deps.quotaCounters.reserveOne(account._id, 'enrichments', limit, claimId, now);
    if (reserved.granted === 0) throw quotaExhausted('enrichments', now);
    deps.metrics?.quotaCharged('enrichments', reserved.granted);

    stillWanted();
    const renewed = await creditsNow(deps.accounts, account, now);
    const charged = await deps.accounts.takeCredit(account._id, claimId);
    if (charged === null) throw new InsufficientCredits(renewed.credits_resets_at.toISOString());
    deps.metrics?.creditCharged();

    stillWanted();
    if (!(await deps.unlocks.completeClaim(account._id, lead.id, claimId, now))) {
      await undo();
      return null;
    }
    // Answered with an error while the unlock was being recorded: the unlock stays, free, as when
    // its answer is lost (the undo reverses the charges and leaves a done unlock alone).
    stillWanted();
    // The unlock is recorded and paid for. A journal entry left open is harmless (no pending
    // unlock refers to it, so nothing reverses it), so failing to tidy must not fail the call.
    await Promise.all([
      deps.accounts.settleCredit(account._id, claimId),
      deps.quotaCounters.settleReservation(account._id, 'enrichments', claimId, now),
    ]).catch((error: unknown) => {
      deps.logger.warn('could not settle an enrichment claim', { claim_id: claimId, error });
    });
    return {
      alreadyEnriched: false,
      chargedCredits: 1,
      credits: charged.credits_remaining,
      enrichments: quotaState(reserved.used, limit, now),
    };
  } catch (error) {
    await undo();
    throw error;
  }
}

/**
 * Reverses whatever `claim` charged and frees its lead. Each reversal is conditional on the
 * claim's journal entry, so a charge never made, or already reversed by another process, is left
 * alone: the same steps serve a failed call and the recovery of an abandoned claim.
 */
async function reverseClaim(deps: EnrichmentDeps, claim: PendingClaim): Promise<void> {
  const claimId = claim.claim_id ?? '';
  const [creditRefunded, enrichmentRefunded] = await Promise.all([
    deps.accounts.refundCredit(claim.account_id, claimId),
    deps.quotaCounters.cancelReservation(claim.account_id, 'enrichments', claimId, claim.created_at),
  ]);
  if (creditRefunded) deps.metrics?.creditRefunded();
  if (enrichmentRefunded) deps.metrics?.quotaRefunded('enrichments', 1);
  deps.logger.debug('reversed an enrichment claim', {
    lead_id: claim.lead_id,
    claim_id: claimId,
    credit_refunded: creditRefunded,
    enrichment_refunded: enrichmentRefunded,
  });
  await deps.unlocks.releaseClaim(claim);
}

/** Undo for a failed call. Never throws: the failure is logged and the recovery finishes the job later. */
async function undoCharge(deps: EnrichmentDeps, claim: PendingClaim): Promise<void> {
  try {
    await reverseClaim(deps, claim);
  } catch (error) {
    deps.logger.error('could not undo an enrichment charge; it will be recovered', {
      claim_id: claim.claim_id,
      error,
    });
  }
}

/** Recovers every abandoned claim of the account, so no charge of a failed call stays taken. */
export async function recoverAbandonedClaims(deps: EnrichmentDeps, accountId: string): Promise<void> {
  const wallClock = deps.wallClock ?? (() => new Date());
  const claimedBefore = new Date(wallClock().getTime() - STALE_CLAIM_MS);
  for (const claim of await deps.unlocks.abandonedClaims(accountId, claimedBefore)) {
    deps.logger.warn('recovering an abandoned enrichment claim', {
      lead_id: claim.lead_id,
      claim_id: claim.claim_id,
    });
    await reverseClaim(deps, claim);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
