import type { Scope } from '../../src/auth/scopes.js';
import type { ToolAccess, ToolCost } from '../../src/tools/define-tool.js';

export interface ToolPolicy {
  scope: Scope | null;
  access: ToolAccess;
  cost: ToolCost | null;
}

/**
 * What each tool demands and charges, written out by hand rather than read from the catalog: a
 * change to a tool's scope, plan gate or meter must change this table too, in plain sight.
 * `test/unit/tool-policy.test.ts` pins the catalog to it; `test/integration/scopes.test.ts` calls
 * every tool with a key lacking exactly the scope named here.
 */
export const TOOL_POLICY: Readonly<Record<string, ToolPolicy>> = {
  search_leads: { scope: 'leads:read', access: 'paid', cost: { quota: 'lead_explores', per: 'result' } },
  get_lead: { scope: 'leads:read', access: 'paid', cost: { quota: 'lead_explores', per: 'call' } },
  enrich_lead: { scope: 'leads:enrich', access: 'paid', cost: { quota: 'enrichments', per: 'unlock' } },
  search_companies: {
    scope: 'companies:read',
    access: 'paid',
    cost: { quota: 'company_explores', per: 'result' },
  },
  get_company: { scope: 'companies:read', access: 'paid', cost: { quota: 'company_explores', per: 'call' } },
  search_signals: { scope: 'signals:read', access: 'paid', cost: null },
  get_market_insights: {
    scope: 'insights:read',
    access: 'paid',
    cost: { quota: 'insight_queries', per: 'call' },
  },
  get_account_usage: { scope: 'account:read', access: 'always', cost: null },
  get_filter_options: { scope: null, access: 'always', cost: null },
};
