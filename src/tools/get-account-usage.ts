import { z } from 'zod';
import { readAccountUsage } from '../billing/account-usage.js';
import { QUOTA_KEYS } from '../plans.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';
import { quotaSchema } from './output-schemas.js';
import { noArgumentsInput } from './params.js';

export const accountUsageOutput = z.looseObject({
  plan: z.string().describe('free, starter, growth or scale'),
  subscription_status: z.string().describe('active, trialing, past_due or canceled'),
  credential: z.looseObject({
    type: z.enum(['api_key', 'oauth']),
    scopes: z.array(z.string()).describe('Scopes of the credential in use'),
  }),
  enrichment_credits: z.looseObject({
    remaining: z.int().min(0),
    monthly_allowance: z.int().min(0),
    resets_at: z.string().describe('ISO 8601 UTC time the credits renew to the monthly allowance'),
  }),
  daily_quotas: z.looseObject(Object.fromEntries(QUOTA_KEYS.map((key) => [key, quotaSchema]))),
  calls_per_minute: z.int().min(1).describe('Tool calls this account may make per minute'),
  notes: z.array(z.string()).describe('Why access is refused, what is nearly used up.'),
});

export const getAccountUsage = defineTool({
  name: 'get_account_usage',
  title: 'Plan, credits and quotas',
  description: [
    "Returns the account's plan and subscription status, the credential in use (api_key or oauth, with its scopes), enrichment credits (remaining, monthly allowance, renewal time), today's daily quotas (lead_explores, company_explores, insight_queries, enrichments: used, limit, remaining, resets_at; a null limit means unlimited), calls_per_minute, and notes on anything refused or nearly used up.",
    'Not metered and answers on every plan: a good first call, and the place to look when another tool refuses.',
  ].join(' '),
  inputSchema: noArgumentsInput,
  outputSchema: accountUsageOutput,
  annotations: READ_ONLY_TOOL,
  scope: 'account:read',
  access: 'always',
  meters: null,
  async handler(_args, { account, credential, now, services, logger }) {
    return readAccountUsage({ ...services, logger }, account, credential, now);
  },
});
