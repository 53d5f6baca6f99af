import type { CompanyDoc } from '../domain/documents.js';
import { searchCompaniesInput } from '../schemas/inputs.js';
import { searchCompaniesOutput } from '../schemas/outputs.js';
import { buildCompanyRanking, readCompanyRanking } from '../search/company-query.js';
import { toCompanyListItem } from '../search/dto.js';
import { searchWithFallback } from '../search/fallback.js';
import { finishPage, planPage, shortenedByQuotaNote } from '../search/paging.js';
import type { Services } from '../services.js';
import { searchBackend } from '../stores/elasticsearch.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';

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
  meters: 'company_explores',
  async handler(args, { meter, now, services }) {
    const search = { secret: services.config.SERVER_SECRET, tool: 'search_companies', args };
    const plan = planPage(search);
    // The page is reserved with the ranking, as in search_leads; then only the companies listed
    // are charged: one whose profile is missing is ranked but cannot be listed. The ranking is
    // asked for the whole page and read for what the quota granted.
    const ranking = buildCompanyRanking(args, now, { offset: plan.position.served, size: plan.size });
    const { result, ...reserved } = await meter.chargeAlongside(
      'company_explores',
      plan.size,
      { partial: true },
      () =>
        searchWithFallback(
          ranking,
          (body) =>
            searchBackend(() => services.elasticsearch.search({ index: services.indices.leads, ...body })),
          (response) => readCompanyRanking(response, { offset: 0, size: 0 }).total > 0,
        ),
    );
    const { response } = result;
    const ranked = readCompanyRanking(response, { offset: plan.position.served, size: reserved.granted });
    const profiles = await fetchCompanies(
      services,
      ranked.companies.map((company) => company.companyId),
    );
    const companies = ranked.companies.flatMap(({ companyId, openRoles }) => {
      const profile = profiles.get(companyId);
      return profile ? [toCompanyListItem(profile, openRoles)] : [];
    });
    const unused = reserved.granted - companies.length;
    const quota = unused > 0 ? await meter.refundUnused('company_explores', unused) : reserved.quota;
    const page = finishPage(search, plan, { returned: ranked.companies.length, moreExist: ranked.moreExist });
    const notes = [...ranking.notes, ...result.notes, ...page.notes];
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

async function fetchCompanies(services: Services, ids: string[]): Promise<Map<string, CompanyDoc>> {
  if (ids.length === 0) return new Map();
  const response = await searchBackend(() =>
    services.elasticsearch.mget<CompanyDoc>({ index: services.indices.companies, ids }),
  );
  const profiles = new Map<string, CompanyDoc>();
  for (const doc of response.docs) {
    if ('found' in doc && doc.found && doc._source) profiles.set(doc._source.id, doc._source);
  }
  return profiles;
}
