import type { z } from 'zod';
import type { Scope } from '../auth/scopes.js';
import type { Credential } from '../auth/verify-credential.js';
import type { QuotaState } from '../billing/quota-state.js';
import type { Logger } from '../logger.js';
import type { EffectiveLimits, QuotaKey } from '../plans.js';
import type { Services } from '../services.js';
import type { Account } from '../stores/accounts.js';

/** MCP tool annotations; every tool states all four (docs/results-and-errors.md, "Annotations"). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What eight of the nine tools are: they read our own data and change nothing. */
export const READ_ONLY_TOOL: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * An MCP App: a page that hosts able to show one display beside the tool's results (docs/protocol.md,
 * "Resources"). Its document is built from `views/<name>/` into `dist/views/<name>.html`.
 */
export interface ToolView {
  /** The resource `_meta.ui.resourceUri` names in `tools/list`. */
  uri: `ui://${string}`;
  /** The folder under `views/`, and the document's file name under `dist/views/` without `.html`. */
  name: string;
  title: string;
  description: string;
}

/** `paid`: needs a paid plan with an active or trialing subscription. `always`: answers every account. */
export type ToolAccess = 'paid' | 'always';

/**
 * Daily quota metering for one call. Charges are refunded automatically when the handler throws,
 * so a failed call is never charged.
 */
export interface Meter {
  /**
   * Charges `want` units. Exact (default): all or nothing. `partial: true`: as many as remain, which
   * may be fewer than `want`. Throws `QuotaExceeded` when nothing at all remains.
   */
  charge(
    quota: QuotaKey,
    want: number,
    options?: { partial?: boolean },
  ): Promise<{ granted: number; quota: QuotaState }>;
  /**
   * Charges as `charge` does and runs `work`, which fetches at most `size` results for what is
   * charged. Where this process last saw at least `want` left (or the quota has no limit), the
   * charge and `work(want)` run side by side, so the call does not wait for MongoDB before the
   * search; another process may have taken part of the quota meanwhile, so the caller keeps only
   * `granted` of what `work` found. Elsewhere the charge comes first and `work(granted)` follows:
   * with nothing left, no work is done. A failure of either fails the call, which refunds the charge.
   */
  chargeAlongside<T>(
    quota: QuotaKey,
    want: number,
    options: { partial?: boolean },
    work: (size: number) => Promise<T>,
  ): Promise<{ granted: number; quota: QuotaState; result: T }>;
  /** Charges exactly one unit; the quota state after the charge. */
  require(quota: QuotaKey): Promise<QuotaState>;
  /** The quota state without charging. */
  peek(quota: QuotaKey): Promise<QuotaState>;
  /**
   * Gives back `unused` of the units this call's last charge of `quota` took: a search reserves its
   * page before it runs and returns what the page did not fill. The quota state after.
   */
  refundUnused(quota: QuotaKey, unused: number): Promise<QuotaState>;
}

export interface ToolContext {
  account: Account;
  limits: EffectiveLimits;
  credential: Credential;
  /** One clock reading per call, so every part of a result agrees on "today". */
  now: Date;
  requestId: string;
  logger: Logger;
  services: Services;
  meter: Meter;
  /**
   * Aborted once the call has failed or run out of time (BACKEND_TIMEOUT_MS) and is answered with
   * its error: a step still running must not make anything final after that (enrich_lead).
   */
  signal: AbortSignal;
}

/**
 * A tool's result type: its output schema's input type without the index signatures that loose
 * (forward-compatible) output objects carry, so plain result interfaces fit it.
 */
type ToolResult<T> = T extends readonly (infer Item)[]
  ? ToolResult<Item>[]
  : T extends object
    ? { [Key in keyof T as string extends Key ? never : Key]: ToolResult<T[Key]> }
    : T;

export interface ToolDefinition<Input extends z.ZodType = z.ZodType, Output extends z.ZodType = z.ZodType> {
  /** snake_case, as the assistant calls it. */
  name: string;
  title: string;
  /** Written for the assistant: what it returns, what it costs, where valid values come from. */
  description: string;
  inputSchema: Input;
  /** Describes success only; errors never carry `structuredContent`. */
  outputSchema: Output;
  annotations: ToolAnnotations;
  /** The scope the credential needs, or `null` for none. */
  scope: Scope | null;
  access: ToolAccess;
  /** The daily quota this tool charges, or `null` when it is not metered; the meter refuses any other. */
  meters: QuotaKey | null;
  /** The interactive view of its results, for hosts that show MCP Apps; most tools have none. */
  view?: ToolView;
  // Method syntax on purpose: tools with different schemas must fit in one `AnyToolDefinition[]`.
  handler(args: z.output<Input>, context: ToolContext): Promise<ToolResult<z.input<Output>>>;
}

export type AnyToolDefinition = ToolDefinition<z.ZodType, z.ZodType>;

/** Identity at run time; it exists so a tool file gets its handler's arguments and result typed from its schemas. */
export function defineTool<Input extends z.ZodType, Output extends z.ZodType>(
  definition: ToolDefinition<Input, Output>,
): ToolDefinition<Input, Output> {
  return definition;
}
