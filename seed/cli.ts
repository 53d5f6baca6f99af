import { parseArgs } from 'node:util';
import type { Client } from '@elastic/elasticsearch';
import { z } from 'zod';
import { useStackUrlsUnlessSet } from '../scripts/stack/state.js';
import { config } from '../src/config.js';
import { createElasticsearchClient } from '../src/stores/elasticsearch.js';
import { connectMongo } from '../src/stores/mongo.js';
import {
  countDocuments,
  createFreshIndices,
  INDEX_KINDS,
  type IndexKind,
  publishIndices,
} from '../src/stores/search-indices.js';
import { parseDay } from './dates.js';
import { createDemoAccounts } from './demo-accounts.js';
import { companyDirectory, generateCompanies } from './generate-companies.js';
import { generateLeads } from './generate-leads.js';
import { generateSignals } from './generate-signals.js';
import { bulkLoad, DEFAULT_LOAD_OPTIONS, finishBulk, type LoadResult, prepareForBulk } from './load.js';

const USAGE = `Usage: npm run seed -- [options]

Creates the indices from index-mappings/, generates the deterministic demo data set and
bulk-loads it, then creates the demo accounts.

  --leads N        leads to generate (default 20000)
  --companies N    companies to generate (default 2000)
  --signals N      signals to generate (default 5000)
  --seed S         seed of the generator, a whole number (default 42)
  --now YYYY-MM-DD the day the data is generated as of (default: today, UTC)
  --prefix P       index prefix (default: INDEX_PREFIX, else "hl")
  --if-empty       load nothing when the leads index already holds documents
  --no-accounts    create no demo accounts (\`npm run demo\` makes its own key)
  --help           show this help

Elasticsearch: ELASTICSEARCH_URL, else the stack started by \`npm run stack:up\`, else http://127.0.0.1:9200.`;

const count = (name: string, fallback: number) =>
  z.coerce
    .number({ error: `--${name} must be a whole number` })
    .int(`--${name} must be a whole number`)
    .min(0, `--${name} cannot be negative`)
    .max(10_000_000, `--${name} can be at most 10,000,000`)
    .default(fallback);

const flagsSchema = z.object({
  leads: count('leads', 20_000),
  companies: count('companies', 2_000),
  signals: count('signals', 5_000),
  seed: z.coerce
    .number({ error: '--seed must be a whole number' })
    .int('--seed must be a whole number')
    .min(0, '--seed cannot be negative')
    .max(2 ** 31 - 1, '--seed is too large')
    .default(42),
  now: z
    .string()
    .refine((day) => {
      try {
        parseDay(day);
        return true;
      } catch {
        return false;
      }
    }, '--now must be a date written YYYY-MM-DD')
    .default(() => new Date().toISOString().slice(0, 10)),
  prefix: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, '--prefix may hold lowercase letters, digits, - and _ only')
    .optional(),
  'if-empty': z.boolean().default(false),
  'no-accounts': z.boolean().default(false),
});

type Flags = z.infer<typeof flagsSchema>;

function parseFlags(argv: string[]): Flags | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      leads: { type: 'string' },
      companies: { type: 'string' },
      signals: { type: 'string' },
      seed: { type: 'string' },
      now: { type: 'string' },
      prefix: { type: 'string' },
      'if-empty': { type: 'boolean' },
      'no-accounts': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const { help: _help, ...flags } = values;
  const parsed = flagsSchema.safeParse(flags);
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => issue.message).join('\n'));
  if (parsed.data.signals > 0 && parsed.data.companies === 0) {
    throw new UsageError(
      '--signals needs companies to report on: give --companies 1 or more, or --signals 0',
    );
  }
  return parsed.data;
}

class UsageError extends Error {}

function report(kind: IndexKind, result: LoadResult): string {
  const rate = result.seconds > 0 ? Math.round(result.indexed / result.seconds) : result.indexed;
  const failed = result.failed > 0 ? `, ${result.failed.toLocaleString('en-GB')} FAILED` : '';
  return `${kind.padEnd(10)} ${result.indexed.toLocaleString('en-GB').padStart(10)} indexed${failed} in ${result.seconds.toFixed(1)} s (${rate.toLocaleString('en-GB')} docs/s)`;
}

/** Builds fresh indices, loads the generated documents and publishes the aliases; false if any document failed. */
async function loadData(
  client: Client,
  prefix: string,
  flags: Flags,
  elasticsearchUrl: string,
): Promise<boolean> {
  const options = { seed: flags.seed, now: flags.now };
  console.log(
    `Seeding ${elasticsearchUrl} prefix "${prefix}": ${flags.leads.toLocaleString('en-GB')} leads, ` +
      `${flags.companies.toLocaleString('en-GB')} companies, ${flags.signals.toLocaleString('en-GB')} signals ` +
      `(seed ${flags.seed}, as of ${flags.now})`,
  );
  const startedAt = performance.now();
  const indices = await createFreshIndices(client, prefix);
  const companies = companyDirectory(flags.companies, options);
  const sources = {
    companies: { total: flags.companies, documents: () => generateCompanies(flags.companies, options) },
    leads: { total: flags.leads, documents: () => generateLeads(flags.leads, companies, options) },
    signals: { total: flags.signals, documents: () => generateSignals(flags.signals, companies, options) },
  };
  const results = new Map<IndexKind, LoadResult>();
  for (const kind of INDEX_KINDS) {
    await prepareForBulk(client, indices[kind]);
    const { total, documents } = sources[kind];
    const result = await bulkLoad(client, indices[kind], documents(), total, {
      ...DEFAULT_LOAD_OPTIONS,
      progressLabel: kind,
    });
    await finishBulk(client, indices[kind], kind);
    results.set(kind, result);
  }
  await publishIndices(client, prefix);

  for (const [kind, result] of results) console.log(report(kind, result));
  console.log(`Total time ${((performance.now() - startedAt) / 1000).toFixed(1)} s.`);

  const failures = [...results.values()].filter((result) => result.failed > 0);
  for (const result of failures) {
    console.error(`${result.index}: ${result.failed} documents were not indexed, e.g.:`);
    for (const sample of result.failureSamples) console.error(`  ${sample}`);
  }
  return failures.length === 0;
}

async function seed(flags: Flags): Promise<number> {
  useStackUrlsUnlessSet(process.env);
  const settings = config();
  const prefix = flags.prefix ?? settings.INDEX_PREFIX;
  // Bulk requests and refreshes take far longer than the server's per-call budget.
  const client = createElasticsearchClient({
    ELASTICSEARCH_URL: settings.ELASTICSEARCH_URL,
    BACKEND_TIMEOUT_MS: 300_000,
  });
  try {
    const existing = flags['if-empty'] ? await countDocuments(client, prefix, 'leads') : 0;
    if (existing > 0) {
      console.log(
        `Index ${prefix}-leads already holds ${existing.toLocaleString('en-GB')} leads: nothing to load (--if-empty).`,
      );
    } else if (!(await loadData(client, prefix, flags, settings.ELASTICSEARCH_URL))) {
      return 1;
    }
  } finally {
    await client.close();
  }

  if (flags['no-accounts']) return 0;
  // Keys are shown only when created, so every run (loaded or not) issues the demo accounts fresh keys.
  const mongo = await connectMongo({ ...settings, BACKEND_TIMEOUT_MS: 30_000 });
  try {
    for (const account of await createDemoAccounts(mongo)) {
      console.log(`Demo account ${account.email} (${account.plan}): API key ${account.apiKey}`);
    }
  } finally {
    await mongo.client.close();
  }
  return 0;
}

async function main(): Promise<number> {
  let flags: Flags | 'help';
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError || (error instanceof Error && 'code' in error))) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (flags === 'help') {
    console.log(USAGE);
    return 0;
  }
  return seed(flags);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
