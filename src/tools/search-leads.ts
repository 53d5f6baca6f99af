import type { LeadDoc } from '../domain/documents.js';
import { searchLeadsInput } from '../schemas/inputs.js';
import { searchLeadsOutput } from '../schemas/outputs.js';
import { toLeadCard } from '../search/dto.js';
import { totalHits } from '../search/es.js';
import { searchWithFallback } from '../search/fallback.js';
import { buildLeadSearch } from '../search/lead-query.js';
import { finishPage, planPage, shortenedByQuotaNote } from '../search/paging.js';
import { searchBackend } from '../stores/elasticsearch.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';

export const searchLeads = defineTool({
  name: 'search_leads',
  title: 'Search open tech roles',
  description: [
    'Searches open tech roles ("leads"), newest first, and returns lead cards: title, location, posting date, company, work/employment type, experience level, salary, estimated placement fee, skills, and whether this account already unlocked the lead.',
    'Cost: each lead returned counts as one lead explore against the daily quota (the result carries `quota`); when fewer explores remain than page_size the page is shortened and `notes` says so.',
    'Filters combine with AND. Enum values (experience_level, work_type, employment_type, company_size, salary_currency) come from get_filter_options. location takes a city, region or country name or ISO code; radius_km needs a city.',
    'title, skills and industry understand plurals, hyphens, word order, common abbreviations and other names ("ML engineers", "k8s"), and are read with close spellings only when nothing matches as typed; `notes` say how they were read (get_filter_options text_filters has the details).',
    'Paging: pass next_cursor back as cursor with exactly the same filters; only the first 1,000 results can be paged. Use get_lead for a preview and enrich_lead to unlock full details (1 credit).',
  ].join(' '),
  inputSchema: searchLeadsInput,
  outputSchema: searchLeadsOutput,
  annotations: READ_ONLY_TOOL,
  scope: 'leads:read',
  access: 'paid',
  meters: 'lead_explores',
  async handler(args, { account, meter, now, services }) {
    const search = { secret: services.config.SERVER_SECRET, tool: 'search_leads', args };
    const plan = planPage(search);
    // Built first, so that a bad argument is refused before anything is charged.
    const query = buildLeadSearch(args, plan.position, plan.size, now);
    // The page is reserved with the search (Meter.chargeAlongside): with nothing left the call is
    // refused, the page holds only what the quota granted, and what it did not fill goes back.
    const { result, ...reserved } = await meter.chargeAlongside(
      'lead_explores',
      plan.size,
      { partial: true },
      (size) =>
        searchWithFallback(
          query,
          (body) =>
            searchBackend(() =>
              services.elasticsearch.search<LeadDoc>({ index: services.indices.leads, ...body, size }),
            ),
          (response) => totalHits(response.hits.total) > 0,
        ),
    );
    const { response } = result;
    const hits = response.hits.hits.slice(0, reserved.granted);
    const unused = reserved.granted - hits.length;
    const [quota, unlocked] = await Promise.all([
      unused > 0 ? meter.refundUnused('lead_explores', unused) : reserved.quota,
      services.unlocks.unlockedAmong(
        account,
        hits.flatMap((hit) => (hit._id ? [hit._id] : [])),
      ),
    ]);
    const total = totalHits(response.hits.total);
    const moreExist = plan.position.served + hits.length < total;
    const page = finishPage(search, plan, { returned: hits.length, moreExist, lastSort: hits.at(-1)?.sort });

    const docs = hits.flatMap((hit) => (hit._source ? [hit._source] : []));
    const notes = [...query.notes, ...result.notes, ...page.notes];
    if (reserved.granted < plan.size && moreExist) {
      notes.push(shortenedByQuotaNote(hits.length, 'lead_explores', quota.resets_at));
    }
    return {
      total,
      returned: docs.length,
      leads: docs.map((doc) => toLeadCard(doc, unlocked.has(doc.id))),
      next_cursor: page.next_cursor,
      quota,
      notes,
    };
  },
});
