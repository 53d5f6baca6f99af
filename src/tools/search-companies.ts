import type { CompanyDoc } from '../domain/documents.js';
import { searchCompaniesInput } from '../schemas/inputs.js';
import { searchCompaniesOutput } from '../schemas/outputs.js';
import {
  buildCompanyRanking,
  companySampleBody,
  EXACT_COMPANY_TOTAL,
  estimatedTotal,
  estimateNote,
  type Ranking,
  type RankingRequest,
  type RankingResponse,
  readCompanyRanking,
  totalIsTooLarge,
} from '../search/company-query.js';
import { toCompanyListItem } from '../search/dto.js';
import type { SearchIndexStore } from '../stores/search-index.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';
import { meteredPage } from './metered-page.js';

/** Samples of companies tried, one in 16 then one in 256, until one holds at most EXACT_COMPANY_TOTAL. */
const SAMPLE_PARTITIONS = [16, 256, 4096];

/** The page of a ranking request; a total too large to count exactly on the leads is estimated. */
export async function rankCompanies(
  searchIndex: SearchIndexStore,
  request: RankingRequest,
  minOpenRoles: number,
): Promise<Ranking> {
  const [ranked, counted] = await Promise.all([
    searchIndex.aggregate<RankingResponse>(request.ranked.index, request.ranked.body),
    request.counted && searchIndex.aggregate<RankingResponse>('rollups', request.counted),
  ]);
  const ranking = readCompanyRanking(request, ranked, counted);
  if (!totalIsTooLarge(request, ranking)) return ranking;
  for (const partitions of SAMPLE_PARTITIONS) {
    const response = await searchIndex.aggregate<{ aggregations?: { sample_total?: { count: number } } }>(
      'leads',
      companySampleBody(request, minOpenRoles, partitions),
    );
    const sampled = response.aggregations?.sample_total?.count ?? 0;
    if (sampled <= EXACT_COMPANY_TOTAL) {
      const estimate = estimatedTotal(sampled, partitions);
      return { ...ranking, total: estimate.total, estimate: { margin: estimate.margin, partitions } };
    }
  }
  return ranking;
}

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
    const rollups = await services.searchIndex.rollupsReady();
    let answered: Ranking | undefined;
    const page = await meteredPage(context, {
      tool: 'search_companies',
      args,
      quota: 'company_explores',
      build: (position, size) =>
        buildCompanyRanking(args, now, { offset: position.served, size }, { rollups }),
      run: async (request: RankingRequest) => {
        answered = await rankCompanies(services.searchIndex, request, args.min_open_roles);
        return answered;
      },
      found: (ranking) => ranking.total > 0,
      read: (ranking, _position, size) => ({
        results: ranking.companies.slice(0, size),
        total: ranking.total,
      }),
      // Ranked on the leads or the roll-ups; a company whose profile is missing from the companies
      // index cannot be listed, so it is not charged.
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
      notes: [...page.notes, ...(answered ? estimateNote(answered) : [])],
    };
  },
});
