import type { CompanyDoc } from '../domain/documents.js';
import { searchCompaniesInput } from '../schemas/inputs.js';
import { searchCompaniesOutput } from '../schemas/outputs.js';
import { buildCompanyRanking, type RankingResponse, readCompanyRanking } from '../search/company-query.js';
import { toCompanyListItem } from '../search/dto.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';
import { meteredPage } from './metered-page.js';

export const searchCompanies = defineTool({
  name: 'search_companies',
  title: 'Find companies by what they are hiring for',
  description: [
    'Finds companies with open tech roles, ordered by how many open roles match (open_roles), then by name. Role filters (location, skills, hiring_for_title, posted_within_days) restrict which roles are counted; company filters (name, industry, company_size, include_recruitment_agencies) restrict which companies are listed; min_open_roles drops companies with fewer matching roles.',
    'hiring_for_title, skills and industry are read as in search_leads (plurals, abbreviations, other names); these and name are read with close spellings only when nothing matches as typed, and `notes` say how they were read.',
    'Cost: each company returned counts as one company explore (the result carries `quota`). company_size values come from get_filter_options.',
    'Paging: pass next_cursor back as cursor with the same filters; only the first 1,000 companies can be paged. Use get_company for a profile and hiring summary.',
  ].join(' '),
  inputSchema: searchCompaniesInput,
  outputSchema: searchCompaniesOutput,
  annotations: READ_ONLY_TOOL,
  scope: 'companies:read',
  access: 'paid',
  cost: { quota: 'company_explores', per: 'result' },
  async handler(args, context) {
    const { now, services } = context;
    const page = await meteredPage(context, {
      tool: 'search_companies',
      args,
      quota: 'company_explores',
      build: (position, size) => buildCompanyRanking(args, now, { offset: position.served, size }),
      run: (body) => services.searchIndex.aggregate<RankingResponse>('leads', body),
      found: (response) => readCompanyRanking(response, { offset: 0, size: 0 }).total > 0,
      read: (response, position, size) => {
        const ranked = readCompanyRanking(response, { offset: position.served, size });
        return { results: ranked.companies, total: ranked.total };
      },
      // Ranked on the leads index; a company whose profile is missing from the companies index
      // cannot be listed, so it is not charged.
      list: async (ranked) => {
        const ids = ranked.map((company) => company.companyId);
        const profiles = new Map(
          (await services.searchIndex.mget<CompanyDoc>('companies', ids)).map((profile) => [
            profile.id,
            profile,
          ]),
        );
        return ranked.flatMap(({ companyId, openRoles }) => {
          const profile = profiles.get(companyId);
          return profile ? [toCompanyListItem(profile, openRoles)] : [];
        });
      },
    });
    return {
      total: page.total,
      returned: page.listed.length,
      companies: page.listed,
      next_cursor: page.next_cursor,
      quota: page.quota,
      notes: page.notes,
    };
  },
});
