/**
 * `npm run relevance`: runs the judged queries of scripts/relevance/judged-queries.ts against the
 * leads index and prints recall, precision and the zero-result rate per query and overall
 * (docs/search-quality.md). Exits 1 when a target is missed.
 *
 *   npm run relevance -- [--prefix P]
 *
 * Elasticsearch as for the seed: ELASTICSEARCH_URL, else the stack of `npm run stack:up`.
 */
import { parseArgs } from 'node:util';
import { config } from '../src/config.js';
import { createElasticsearchClient, indexNames } from '../src/stores/elasticsearch.js';
import { evaluate, formatReport, summarise } from './relevance/evaluate.js';
import { JUDGED_QUERIES } from './relevance/judged-queries.js';
import { meetsTargets } from './relevance/targets.js';
import { useStackUrlsUnlessSet } from './stack/state.js';

const { values } = parseArgs({ options: { prefix: { type: 'string' } }, strict: true });
useStackUrlsUnlessSet(process.env);
const settings = config();
const client = createElasticsearchClient({
  ELASTICSEARCH_URL: settings.ELASTICSEARCH_URL,
  BACKEND_TIMEOUT_MS: 60_000,
});
try {
  const index = indexNames(values.prefix ?? settings.INDEX_PREFIX).leads;
  const results = await evaluate(client, index, JUDGED_QUERIES, new Date());
  console.log(`Relevance of ${JUDGED_QUERIES.length} judged queries on ${index}\n`);
  console.log(formatReport(results));
  const verdict = meetsTargets(summarise(results));
  console.log(`\n${verdict.ok ? 'Targets met.' : `Targets missed: ${verdict.missed.join('; ')}.`}`);
  process.exitCode = verdict.ok ? 0 : 1;
} finally {
  await client.close();
}
