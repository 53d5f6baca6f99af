import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Credential } from '../auth/credential.js';
import { type Scope, STEP_UP_SCOPES } from '../auth/scopes.js';
import { InsufficientScope, RateLimited, SubscriptionRequired, Unavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import { createCallMeter } from '../metering/meter.js';
import { ACCESS_NEEDED, accessRefusal, effectivePlanLimits } from '../plans.js';
import type { Services } from '../services.js';
import type { Account } from '../stores/accounts.js';
import { type AnyToolDefinition, meteredQuota, type ToolContext } from '../tools/define-tool.js';
import { parseToolArguments } from './arguments.js';
import { asDomainError, errorResult, successResult } from './tool-result.js';

/** Who is calling, as the HTTP edge established it. */
export interface Caller {
  account: Account;
  credential: Credential;
  requestId: string;
  logger: Logger;
}

/**
 * How long past its deadline a failed call waits for its refunds before it answers. What has not
 * landed by then is already written down on the local disk and lands in the background
 * (docs/search-semantics.md, "Metering"), so a call answers within BACKEND_TIMEOUT_MS plus this.
 */
const REFUND_WAIT_MS = 250;

/**
 * An OAuth token lacks a scope its client can add by asking the user again: not a tool result but
 * an HTTP 403 challenge, which only the HTTP edge can send (docs/protocol.md, "Scopes").
 */
export class StepUpRequired extends Error {
  constructor(readonly scope: Scope) {
    super(`step-up to the scope ${scope} required`);
    this.name = 'StepUpRequired';
  }
}

/**
 * The one scope check: a credential lacking the tool's scope is refused with `insufficient_scope`,
 * or, for an OAuth token that can step up to it, with `StepUpRequired`. API keys cannot step up.
 */
function checkScope(required: Scope | null, credential: Credential): void {
  if (required === null || credential.scopes.includes(required)) return;
  if (credential.type === 'oauth' && STEP_UP_SCOPES.has(required)) throw new StepUpRequired(required);
  throw new InsufficientScope(required);
}

/**
 * Runs one tool call: rate limit → plan gate → scope → arguments → handler.
 * Any failure refunds what the call charged and becomes its error result (docs/results-and-errors.md,
 * "Tool errors"). The call has BACKEND_TIMEOUT_MS for all of it: past that it answers `unavailable`
 * whatever its backends are doing, and what it charged is refunded (docs/performance.md, "Answers
 * within a bound").
 */
export async function runTool(
  tool: AnyToolDefinition,
  rawArguments: unknown,
  caller: Caller,
  services: Services,
  clock: () => Date,
): Promise<CallToolResult> {
  const now = clock();
  const startedAt = Date.now();
  const logger = caller.logger.child({ tool: tool.name });
  const limits = effectivePlanLimits(caller.account);
  const meter = createCallMeter({
    store: services.quotaCounters,
    accountId: caller.account._id,
    limits,
    meteredQuota: meteredQuota(tool),
    now,
    logger,
    metrics: services.metrics,
  });
  const ended = new AbortController();
  const context: ToolContext = { ...caller, logger, limits, now, services, meter, signal: ended.signal };
  const deadlineAt = performance.now() + services.config.BACKEND_TIMEOUT_MS;
  const pipeline = async () => {
    // The rate limit comes first so that refused calls, too, cost the caller its per-minute budget.
    const rate = await services.rateLimits.consume(caller.account._id, limits.calls_per_minute, now);
    if (!rate.allowed) throw new RateLimited(rate.retryAfterSeconds, limits.calls_per_minute);
    if (tool.access === 'paid') {
      const refusal = accessRefusal(caller.account);
      if (refusal !== null) throw new SubscriptionRequired(refusal, ACCESS_NEEDED);
    }
    checkScope(tool.scope, caller.credential);
    const args = parseToolArguments(tool.inputSchema, rawArguments);
    // Not parsed against the output schema here: the handler's result has the schema's type, and the
    // tests hold every result they see to the schema exactly (test/fuzz/checks.ts), so parsing it
    // again would cost CPU on every call to find nothing.
    return tool.handler(args, context);
  };
  try {
    const output = await settledBy(pipeline(), deadlineAt);
    if (output === PAST_DEADLINE) throw new Unavailable();
    const result = successResult(output as Record<string, unknown>);
    // The answer is made: what the call charged is final now.
    meter.settleAll();
    const durationMs = Date.now() - startedAt;
    logger.info('tool call', { outcome: 'ok', duration_ms: durationMs });
    services.metrics.toolCallFinished(tool.name, 'ok', durationMs);
    return result;
  } catch (error) {
    // Steps still running (past the deadline) learn that the call is over and commit nothing more.
    ended.abort();
    await settledBy(meter.refundAll(), Math.max(deadlineAt, performance.now()) + REFUND_WAIT_MS);
    if (error instanceof StepUpRequired) throw error;
    const failure = asDomainError(error, { requestId: caller.requestId, logger });
    const durationMs = Date.now() - startedAt;
    logger.info('tool call', { outcome: failure.code, duration_ms: durationMs });
    services.metrics.toolCallFinished(tool.name, failure.code, durationMs);
    return errorResult(failure);
  }
}

const PAST_DEADLINE = Symbol('past the deadline');

/**
 * What `work` settles with, or PAST_DEADLINE once `performance.now()` passes `deadlineAt` first.
 * Work that loses goes on; its failure, if any, is nobody's answer any more.
 */
async function settledBy<T>(work: Promise<T>, deadlineAt: number): Promise<T | typeof PAST_DEADLINE> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof PAST_DEADLINE>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadlineAt - performance.now()), PAST_DEADLINE);
  });
  try {
    const winner = await Promise.race([work, expired]);
    if (winner === PAST_DEADLINE) work.catch(() => undefined);
    return winner;
  } finally {
    clearTimeout(timer);
  }
}
