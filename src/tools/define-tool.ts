import type { z } from 'zod';
import type { Credential } from '../auth/credential.js';
import type { Scope } from '../auth/scopes.js';
import type { Logger } from '../logger.js';
import type { Meter } from '../metering/meter.js';
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
 * What a call costs (docs/plans.md): a unit of a daily quota per call or per result listed,
 * charged by the call's meter; or, per lead unlocked, an enrichment and a credit, which
 * src/billing/enrich.ts charges together under the unlock's claim, never the meter
 * (docs/enrichment.md, "Why not the meter").
 */
export type ToolCost = { quota: QuotaKey; per: 'call' | 'result' } | { quota: 'enrichments'; per: 'unlock' };

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
  /** What a call costs, or `null` when it is free. */
  cost: ToolCost | null;
  /** The interactive view of its results, for hosts that show MCP Apps; most tools have none. */
  view?: ToolView;
  // Method syntax on purpose: tools with different schemas must fit in one `AnyToolDefinition[]`.
  handler(args: z.output<Input>, context: ToolContext): Promise<ToolResult<z.input<Output>>>;
}

export type AnyToolDefinition = ToolDefinition<z.ZodType, z.ZodType>;

/** The one quota the call's meter may charge for `tool`; it refuses any other. */
export function meteredQuota(tool: Pick<AnyToolDefinition, 'cost'>): QuotaKey | null {
  return tool.cost === null || tool.cost.per === 'unlock' ? null : tool.cost.quota;
}

/** Identity at run time; it exists so a tool file gets its handler's arguments and result typed from its schemas. */
export function defineTool<Input extends z.ZodType, Output extends z.ZodType>(
  definition: ToolDefinition<Input, Output>,
): ToolDefinition<Input, Output> {
  return definition;
}
