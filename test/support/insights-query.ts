import type { MarketInsightsArgs } from '../../src/schemas/inputs.js';
import { buildInsightsQuery } from '../../src/search/insights-query.js';

/** The insights query as it reads the leads, with its request body on `body` (the roll-ups' own: insights-rollup tests). */
export function onLeads(args: MarketInsightsArgs, now: Date) {
  const query = buildInsightsQuery(args, now, { rollups: false });
  return { ...query, body: query.body.body };
}
