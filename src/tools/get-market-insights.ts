import { INSIGHT_BREAKDOWN_BY, INSIGHT_GROUP_BY } from '../domain/enums.js';
import { marketInsightsInput } from '../schemas/inputs.js';
import { marketInsightsOutput } from '../schemas/outputs.js';
import { totalHits } from '../search/es.js';
import { searchWithFallback } from '../search/fallback.js';
import {
  buildInsightsQuery,
  type InsightsRequest,
  type InsightsResponse,
  readInsightsResponse,
  shapeInsights,
} from '../search/insights-query.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';

const NOTHING_MATCHED: InsightsResponse = { hits: { total: 0 } };

export const getMarketInsights = defineTool({
  name: 'get_market_insights',
  title: 'Market statistics over open roles',
  description: [
    'Aggregate statistics over open roles: counts and shares per group, salary benchmarks (min, p25, median, p75, max, mean and sample size of annualised salary midpoints in the chosen currency) with metric "salary", and trends with group_by posted_week or posted_month (periods oldest first, each with change_percent against the one before).',
    `group_by is one of ${INSIGHT_GROUP_BY.join(', ')}; breakdown_by (${INSIGHT_BREAKDOWN_BY.join(', ')}) splits each row. filters take the same values as search_leads and read text the same way (plurals, abbreviations, close spellings; \`notes\` say how). At most \`limit\` groups (1-50) are returned; roles in other groups are counted in other_count.`,
    'Cost: one insight query per call, however many rows.',
  ].join(' '),
  inputSchema: marketInsightsInput,
  outputSchema: marketInsightsOutput,
  annotations: READ_ONLY_TOOL,
  scope: 'insights:read',
  access: 'paid',
  cost: { quota: 'insight_queries', per: 'call' },
  view: {
    uri: 'ui://market-insights/view.html',
    name: 'market-insights',
    title: 'Market insights chart',
    description:
      'An interactive chart and table of a get_market_insights result, with controls to regroup it (each change is one more insight query).',
  },
  async handler(args, { meter, now, services }) {
    // Built first, so that a bad filter is refused before anything is charged; charged with the
    // search (Meter.chargeAlongside), so that with nothing left the call is refused. A place not
    // recognised matches nothing: answered as such with no search and no charge, as search_leads.
    const query = buildInsightsQuery(args, now, { rollups: await services.searchIndex.rollupsReady() });
    if (query.unknownPlace) {
      const { quota } = await meter.charge('insight_queries', 0);
      return { ...shapeInsights(args, NOTHING_MATCHED, query.notes, now), quota };
    }
    const { quota, result } = await meter.chargeAlongside('insight_queries', 1, {}, () =>
      searchWithFallback(
        query,
        async (request: InsightsRequest) =>
          readInsightsResponse(
            args,
            request,
            await services.searchIndex.aggregate<unknown>(request.index, request.body),
          ),
        (response) => totalHits(response.hits.total) > 0,
      ),
    );
    const insights = shapeInsights(args, result.response, [...query.notes, ...result.notes], now);
    return { ...insights, quota };
  },
});
