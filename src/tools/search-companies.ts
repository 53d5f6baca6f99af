import type { CompanyDoc } from '../domain/documents.js';
import { searchCompaniesInput } from '../schemas/inputs.js';
import { searchCompaniesOutput } from '../schemas/outputs.js';
import { buildCompanyRanking, type RankingResponse, readCompanyRanking } from '../search/company-query.js';
import { toCompanyListItem } from '../search/dto.js';
import { finishPage, planPage, shortenedByQuotaNote } from '../search/paging.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';

export const searchCompanies = defineTool({
  name: 'search_companies',
  title: 'Find companies by what they are hiring for',
  description: [
    'Finds companies with open tech roles, ordered by how many open roles match (open_roles), then by name. Role filters (location, skills, hiring_for_title, posted_within_days) restrict which roles are counted; company filters (name, industry, company_size, include_recruitment_agencies) restrict which companies are listed; min_open_roles drops companies with fewer matching roles.',
    'Cost: each company returned counts as one company explore (the result carries `quota`). company_size values come from get_filter_options.',
    'Paging: pass next_cursor back as cursor with the same filters; only the first 1,000 companies can be paged. Use get_company for a profile and hiring summary.',
  ].join(' '),
  inputSchema: searchCompaniesInput,
  outputSchema: searchCompaniesOutput,
  annotations: READ_ONLY_TOOL,
  scope: 'companies:read',
  access: 'paid',
  meters: 'company_explores',
  async handler(args, { meter, now, services }) {
    const search = { secret: services.config.SERVER_SECRET, tool: 'search_companies', args };
    const plan = planPage(search);
    // The page is reserved with the ranking, as in search_leads; then only the companies listed
    // are charged: one whose profile is missing is ranked but cannot be listed. The ranking is
    // asked for the whole page and read for what the quota granted.
    const ranking = buildCompanyRanking(args, now, { offset: plan.position.served, size: plan.size });
    const { result: response, ...reserved } = await meter.chargeAlongside(
      'company_explores',
      plan.size,
      { partial: true },
      () => services.searchIndex.aggregate<RankingResponse>('leads', ranking.body),
    );
    const ranked = readCompanyRanking(response, { offset: plan.position.served, size: reserved.granted });
    const profiles = new Map(
      (
        await services.searchIndex.mget<CompanyDoc>(
          'companies',
          ranked.companies.map((company) => company.companyId),
        )
      ).map((profile) => [profile.id, profile]),
    );
    const companies = ranked.companies.flatMap(({ companyId, openRoles }) => {
      const profile = profiles.get(companyId);
      return profile ? [toCompanyListItem(profile, openRoles)] : [];
    });
    const unused = reserved.granted - companies.length;
    const quota = unused > 0 ? await meter.refundUnused('company_explores', unused) : reserved.quota;
    const page = finishPage(search, plan, { returned: ranked.companies.length, moreExist: ranked.moreExist });
    const notes = [...ranking.notes, ...page.notes];
    if (reserved.granted < plan.size && ranked.moreExist) {
      notes.push(shortenedByQuotaNote(companies.length, 'company_explores', quota.resets_at));
    }
    return {
      total: ranked.total,
      returned: companies.length,
      companies,
      next_cursor: page.next_cursor,
      quota,
      notes,
    };
  },
});
