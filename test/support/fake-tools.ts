import { z } from 'zod';
import { Unavailable } from '../../src/errors.js';
import { type AnyToolDefinition, defineTool } from '../../src/tools/define-tool.js';

/**
 * Stand-in tools for exercising the framework: the real tools are tested on their own, and these
 * keep protocol, auth and metering tests independent of search data.
 */
const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const quotaSchema = z.object({
  used: z.int(),
  limit: z.int().nullable(),
  remaining: z.int().nullable(),
  resets_at: z.string(),
});

const echoTool = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Repeats text; needs leads:read and a paid plan.',
  inputSchema: z.strictObject({ text: z.string().max(20), times: z.int().min(1).max(5).default(1) }),
  outputSchema: z.object({ echoed: z.string() }),
  annotations: readOnly,
  scope: 'leads:read',
  access: 'paid',
  cost: null,
  handler: async ({ text, times }) => ({ echoed: text.repeat(times) }),
});

const whoamiTool = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description: 'The account and credential; answers every account, like get_account_usage.',
  inputSchema: z.strictObject({}),
  outputSchema: z.object({
    account_id: z.string(),
    plan: z.string(),
    credential: z.object({ type: z.enum(['api_key', 'oauth']), scopes: z.array(z.string()) }),
  }),
  annotations: readOnly,
  scope: null,
  access: 'always',
  cost: null,
  handler: async (_args, { account, credential }) => ({
    account_id: account._id,
    plan: account.plan,
    credential: { type: credential.type, scopes: credential.scopes },
  }),
});

const insightsProbeTool = defineTool({
  name: 'insights_probe',
  title: 'Insights probe',
  description: 'Needs insights:read.',
  inputSchema: z.strictObject({}),
  outputSchema: z.object({ ok: z.literal(true) }),
  annotations: readOnly,
  scope: 'insights:read',
  access: 'paid',
  cost: null,
  handler: async () => ({ ok: true as const }),
});

const enrichProbeTool = defineTool({
  name: 'enrich_probe',
  title: 'Enrich probe',
  description: 'Needs leads:enrich, the scope OAuth clients can step up to.',
  inputSchema: z.strictObject({}),
  outputSchema: z.object({ ok: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: 'leads:enrich',
  access: 'paid',
  cost: null,
  handler: async () => ({ ok: true as const }),
});

/** Charges lead explores like a search would, then optionally fails as if Elasticsearch were down. */
const chargeLeadsTool = defineTool({
  name: 'charge_leads',
  title: 'Charge leads',
  description: 'Charges `want` lead explores; `fail` makes the call fail after charging.',
  inputSchema: z.strictObject({
    want: z.int().min(0).max(100),
    partial: z.boolean().default(false),
    fail: z.boolean().default(false),
  }),
  outputSchema: z.object({ granted: z.int(), quota: quotaSchema }),
  annotations: readOnly,
  scope: 'leads:read',
  access: 'paid',
  cost: { quota: 'lead_explores', per: 'call' },
  handler: async ({ want, partial, fail }, { meter }) => {
    const charged = await meter.charge('lead_explores', want, { partial });
    if (fail) throw new Unavailable('search');
    return charged;
  },
});

/** Declares one quota and charges another: a framework bug the meter must refuse. */
const miscountingTool = defineTool({
  name: 'miscounting',
  title: 'Miscounting',
  description: 'Charges a quota it did not declare.',
  inputSchema: z.strictObject({}),
  outputSchema: z.object({ granted: z.int() }),
  annotations: readOnly,
  scope: null,
  access: 'paid',
  cost: { quota: 'lead_explores', per: 'call' },
  handler: async (_args, { meter }) => ({ granted: (await meter.charge('company_explores', 1)).granted }),
});

/** A handler that breaks, to see that the caller gets `internal` and no stack. */
const brokenTool = defineTool({
  name: 'broken',
  title: 'Broken',
  description: 'Always throws an unexpected error.',
  inputSchema: z.strictObject({}),
  outputSchema: z.object({ never: z.string() }),
  annotations: readOnly,
  scope: null,
  access: 'paid',
  cost: null,
  handler: async () => {
    throw new Error('secret internal detail at /srv/app/src/thing.ts');
  },
});

export const fakeTools: readonly AnyToolDefinition[] = [
  echoTool,
  whoamiTool,
  insightsProbeTool,
  enrichProbeTool,
  chargeLeadsTool,
  miscountingTool,
  brokenTool,
];
