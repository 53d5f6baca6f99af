import type { Scope } from '../../src/auth/scopes.js';
import type { QuotaKey } from '../../src/plans.js';
import type { ToolAccess } from '../../src/tools/define-tool.js';

export interface ToolPolicy {
  scope: Scope | null;
  access: ToolAccess;
  meters: QuotaKey | null;
}

/**
 * What each tool demands and charges, written out by hand rather than read from the catalog: a
 * change to a tool's scope, plan gate or meter must change this table too, in plain sight.
 * `test/unit/tool-policy.test.ts` pins the catalog to it; `test/integration/scopes.test.ts` calls
 * every tool with a key lacking exactly the scope named here.
 */
export const TOOL_POLICY: Readonly<Record<string, ToolPolicy>> = {
  search_leads: { scope: 'leads:read', access: 'paid', meters: 'lead_explores' },
  get_lead: { scope: 'leads:read', access: 'paid', meters: 'lead_explores' },
  enrich_lead: { scope: 'leads:enrich', access: 'paid', meters: 'enrichments' },
  search_companies: { scope: 'companies:read', access: 'paid', meters: 'company_explores' },
  get_company: { scope: 'companies:read', access: 'paid', meters: 'company_explores' },
  search_signals: { scope: 'signals:read', access: 'paid', meters: null },
  get_market_insights: { scope: 'insights:read', access: 'paid', meters: 'insight_queries' },
  get_account_usage: { scope: 'account:read', access: 'always', meters: null },
  get_filter_options: { scope: null, access: 'always', meters: null },
};
