import type { AnyToolDefinition } from './define-tool.js';
import { enrichLead } from './enrich-lead.js';
import { getAccountUsage } from './get-account-usage.js';
import { getCompany } from './get-company.js';
import { getFilterOptions } from './get-filter-options.js';
import { getLead } from './get-lead.js';
import { getMarketInsights } from './get-market-insights.js';
import { searchCompanies } from './search-companies.js';
import { searchLeads } from './search-leads.js';
import { searchSignals } from './search-signals.js';

/** Every tool the server offers, in the order `tools/list` shows them. */
export const tools: readonly AnyToolDefinition[] = [
  searchLeads,
  getLead,
  enrichLead,
  searchCompanies,
  getCompany,
  searchSignals,
  getMarketInsights,
  getAccountUsage,
  getFilterOptions,
];
