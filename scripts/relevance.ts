/**
 * `npm run relevance`: runs the two judged sets (scripts/relevance/judged-queries.ts, written with
 * the vocabulary, and scripts/relevance/outsider-queries.ts, written from the data alone) against
 * the leads index and prints recall, precision and the zero-result rate per query and overall
 * (docs/search-quality.md). Exits 1 when either set misses a target.
 *
 *   npm run relevance -- [--prefix P] [--set first|outsider]
 *
 * Elasticsearch as for the seed: ELASTICSEARCH_URL, else the stack of `npm run stack:up`.
 */
import { parseArgs } from 'node:util';
import { config } from '../src/config.js';
import { createElasticsearchClient, indexNames } from '../src/stores/elasticsearch.js';
import { evaluate, formatReport, type Judged, summarise } from './relevance/evaluate.js';
import { JUDGED_QUERIES } from './relevance/judged-queries.js';
import { OUTSIDER_QUERIES } from './relevance/outsider-queries.js';
import { meetsTargets } from './relevance/targets.js';
import { useStackUrlsUnlessSet } from './stack/state.js';

const SETS: Record<string, { name: string; queries: readonly Judged[] }> = {
  first: { name: 'first set (judged-queries.ts)', queries: JUDGED_QUERIES },
  outsider: { name: 'outsider set (outsider-queries.ts)', queries: OUTSIDER_QUERIES },
};

const { values } = parseArgs({
  options: { prefix: { type: 'string' }, set: { type: 'string' } },
  strict: true,
});
if (values.set !== undefined && !(values.set in SETS)) {
  console.error(`--set must be one of: ${Object.keys(SETS).join(', ')}`);
  process.exit(2);
}
useStackUrlsUnlessSet(process.env);
const settings = config();
const client = createElasticsearchClient({
  ELASTICSEARCH_URL: settings.ELASTICSEARCH_URL,
  BACKEND_TIMEOUT_MS: 60_000,
});
try {
  const index = indexNames(values.prefix ?? settings.INDEX_PREFIX).leads;
  const verdicts: string[] = [];
  for (const [key, set] of Object.entries(SETS)) {
    if (values.set !== undefined && values.set !== key) continue;
    const results = await evaluate(client, index, set.queries, new Date());
    console.log(`Relevance of the ${set.name}: ${set.queries.length} judged queries on ${index}\n`);
    console.log(`${formatReport(results)}\n`);
    const verdict = meetsTargets(summarise(results));
    if (!verdict.ok) verdicts.push(`${set.name}: ${verdict.missed.join('; ')}`);
  }
  console.log(verdicts.length === 0 ? 'Targets met.' : `Targets missed: ${verdicts.join(' | ')}.`);
  process.exitCode = verdicts.length === 0 ? 0 : 1;
} finally {
  await client.close();
}
