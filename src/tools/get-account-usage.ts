import { readAccountUsage } from '../billing/account-usage.js';
import { QUOTA_KEYS } from '../plans.js';
import { noArgumentsInput } from '../schemas/inputs.js';
import { accountUsageOutput } from '../schemas/outputs.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';

export const getAccountUsage = defineTool({
  name: 'get_account_usage',
  title: 'Plan, credits and quotas',
  description: [
    `Returns the account's plan and subscription status, the credential in use (api_key or oauth, with its scopes), enrichment credits (remaining, monthly allowance, renewal time), today's daily quotas (${QUOTA_KEYS.join(', ')}: used, limit, remaining, resets_at; a null limit means unlimited), calls_per_minute, and notes on anything refused or nearly used up.`,
    'Not metered and answers on every plan: a good first call, and the place to look when another tool refuses.',
  ].join(' '),
  inputSchema: noArgumentsInput,
  outputSchema: accountUsageOutput,
  annotations: READ_ONLY_TOOL,
  scope: 'account:read',
  access: 'always',
  cost: null,
  async handler(_args, { account, credential, now, services, logger }) {
    return readAccountUsage({ ...services, logger }, account, credential, now);
  },
});
