import type { CompanyDoc } from '../domain/documents.js';
import { NotFound } from '../errors.js';
import { getCompanyInput } from '../schemas/inputs.js';
import { getCompanyOutput } from '../schemas/outputs.js';
import {
  buildCompanyHiringSummary,
  buildRecentSignals,
  type HiringSummaryResponse,
  readCompanyHiring,
} from '../search/company-profile-query.js';
import { type RecentSignalSource, toCompanyProfile } from '../search/dto.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';

export const getCompany = defineTool({
  name: 'get_company',
  title: 'Company profile and hiring summary',
  description: [
    'Returns a company profile (industry, sector, size and size band, headquarters, founded, about, specialties, blue-chip flag, offices, website, logo) with its hiring summary: open_roles, counts by experience level and work type, top titles, skills and locations as {label, count}, the 5 newest open roles as lead cards (recent_leads), the 5 newest company news items (recent_signals), and roles posted in the last 7 days against the 7 before.',
    'Cost: one company explore. Use company_id exactly as search_companies, search_leads or search_signals returned it.',
  ].join(' '),
  inputSchema: getCompanyInput,
  outputSchema: getCompanyOutput,
  annotations: READ_ONLY_TOOL,
  scope: 'companies:read',
  access: 'paid',
  cost: { quota: 'company_explores', per: 'call' },
  async handler(args, { account, meter, now, services }) {
    // Charged first: with nothing left the call is refused before any lookup runs.
    const quota = await meter.require('company_explores');
    const { searchIndex } = services;
    const [company, hiringResponse, signalsResponse] = await Promise.all([
      searchIndex.get<CompanyDoc>('companies', args.company_id),
      searchIndex.aggregate<HiringSummaryResponse>('leads', buildCompanyHiringSummary(args.company_id, now)),
      searchIndex.search<RecentSignalSource>('signals', buildRecentSignals(args.company_id)),
    ]);
    if (company === undefined) throw new NotFound('company_id', args.company_id, 'company');

    const hiring = readCompanyHiring(hiringResponse);
    const unlocked = await services.unlocks.unlockedAmong(
      account,
      hiring.recentLeads.map((lead) => lead.id),
    );
    const recentSignals = signalsResponse.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : []));
    return { company: toCompanyProfile(company, hiring, unlocked, recentSignals), quota };
  },
});
