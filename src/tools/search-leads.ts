import type { LeadDoc } from '../domain/documents.js';
import { searchLeadsInput } from '../schemas/inputs.js';
import { searchLeadsOutput } from '../schemas/outputs.js';
import { toLeadCard } from '../search/dto.js';
import { totalHits } from '../search/es.js';
import { buildLeadSearch } from '../search/lead-query.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';
import { meteredPage } from './metered-page.js';

export const searchLeads = defineTool({
  name: 'search_leads',
  title: 'Search open tech roles',
  description: [
    'Searches open tech roles ("leads"), newest first, and returns lead cards: title, location, posting date, company, work/employment type, experience level, salary, estimated placement fee, skills, and whether this account already unlocked the lead.',
    'Cost: each lead returned counts as one lead explore against the daily quota (the result carries `quota`); when fewer explores remain than page_size the page is shortened and `notes` says so.',
    'Filters combine with AND. Enum values (experience_level, work_type, employment_type, company_size, salary_currency) come from get_filter_options. location takes a city, region, country or ISO code, an area ("DACH", "EMEA", "Bay Area") or "remote"/"Remote UK"; radius_km needs a city.',
    'title, skills and industry understand plurals, hyphens, word order, abbreviations and other names ("ML engineers", "Sr.", "k8s"); when nothing matches as typed they are read again (close spellings; "javascript developer" as a skill). `notes` say how (get_filter_options text_filters explains).',
    'Paging: pass next_cursor back as cursor with the same filters; only the first 1,000 results can be paged. Use get_lead for a preview and enrich_lead to unlock full details (1 credit).',
  ].join(' '),
  inputSchema: searchLeadsInput,
  outputSchema: searchLeadsOutput,
  annotations: READ_ONLY_TOOL,
  scope: 'leads:read',
  access: 'paid',
  cost: { quota: 'lead_explores', per: 'result' },
  async handler(args, context) {
    const { account, now, services } = context;
    const page = await meteredPage(context, {
      tool: 'search_leads',
      args,
      quota: 'lead_explores',
      build: (position, size) => buildLeadSearch(args, position, size, now),
      run: (body) => services.searchIndex.search<LeadDoc>('leads', body),
      found: (response) => totalHits(response.hits.total) > 0,
      read: (response, _position, size) => {
        const hits = response.hits.hits.slice(0, size);
        return { results: hits, total: totalHits(response.hits.total), lastSort: hits.at(-1)?.sort };
      },
      list: async (hits) => {
        const unlocked = await services.unlocks.unlockedAmong(
          account,
          hits.flatMap((hit) => (hit._id ? [hit._id] : [])),
        );
        return hits.flatMap((hit) =>
          hit._source ? [toLeadCard(hit._source, unlocked.has(hit._source.id))] : [],
        );
      },
    });
    return {
      total: page.total,
      returned: page.listed.length,
      leads: page.listed,
      next_cursor: page.next_cursor,
      quota: page.quota,
      notes: page.notes,
    };
  },
});
