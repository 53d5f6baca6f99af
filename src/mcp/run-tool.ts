import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Credential } from '../auth/verify-credential.js';
import { InsufficientScope, RateLimited, SubscriptionRequired } from '../errors.js';
import type { Logger } from '../logger.js';
import { accessRefusal, effectivePlanLimits } from '../plans.js';
import type { Services } from '../services.js';
import type { Account } from '../stores/accounts.js';
import type { AnyToolDefinition, ToolContext } from '../tools/define-tool.js';
import { parseToolArguments } from './arguments.js';
import { createCallMeter } from './meter.js';
import { asDomainError, errorResult, successResult } from './tool-result.js';

/** Who is calling, as the HTTP edge established it. */
export interface Caller {
  account: Account;
  credential: Credential;
  requestId: string;
  logger: Logger;
}

/**
 * Runs one tool call: rate limit → plan gate → scope → arguments → handler.
 * Any failure refunds what the call charged and becomes its error result (docs/results-and-errors.md,
 * "Tool errors").
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
    meteredQuota: tool.meters,
    now,
    logger,
    metrics: services.metrics,
  });
  const context: ToolContext = { ...caller, logger, limits, now, services, meter };
  try {
    // The rate limit comes first so that refused calls, too, cost the caller its per-minute budget.
    const rate = await services.rateLimits.consume(caller.account._id, limits.calls_per_minute, now);
    if (!rate.allowed) throw new RateLimited(rate.retryAfterSeconds, limits.calls_per_minute);
    if (tool.access === 'paid') {
      const refusal = accessRefusal(caller.account);
      if (refusal !== null) throw new SubscriptionRequired(refusal);
    }
    if (tool.scope !== null && !caller.credential.scopes.includes(tool.scope)) {
      throw new InsufficientScope(tool.scope);
    }
    const args = parseToolArguments(tool.inputSchema, rawArguments);
    // Not parsed against the output schema here: the handler's result has the schema's type, and the
    // tests hold every result they see to the schema exactly (test/fuzz/checks.ts), so parsing it
    // again would cost CPU on every call to find nothing.
    const output = await tool.handler(args, context);
    const durationMs = Date.now() - startedAt;
    logger.info('tool call', { outcome: 'ok', duration_ms: durationMs });
    services.metrics.toolCallFinished(tool.name, 'ok', durationMs);
    return successResult(output as Record<string, unknown>);
  } catch (error) {
    await meter.refundAll();
    const failure = asDomainError(error, { requestId: caller.requestId, logger });
    const durationMs = Date.now() - startedAt;
    logger.info('tool call', { outcome: failure.code, duration_ms: durationMs });
    services.metrics.toolCallFinished(tool.name, failure.code, durationMs);
    return errorResult(failure);
  }
}
