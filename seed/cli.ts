import type { Client } from '@elastic/elasticsearch';
import { z } from 'zod';
import { useStackUrlsUnlessSet } from '../scripts/stack/state.js';
import { config } from '../src/config.js';
import type { FeedKind } from '../src/feed/records.js';
import { readCommandLine } from '../src/ingest/command-line.js';
import { numberedRecords } from '../src/ingest/lines.js';
import { ingest, type KindReport, type Problem } from '../src/ingest/load.js';
import { Progress } from '../src/ingest/progress.js';
import { rollupSummary } from '../src/ingest/rollups.js';
import { createElasticsearchClient } from '../src/stores/elasticsearch.js';
import { connectMongo } from '../src/stores/mongo.js';
import { countDocuments } from '../src/stores/search-indices.js';
import { parseDay } from './dates.js';
import { createDemoAccounts } from './demo-accounts.js';
import { writeFeedFiles } from './feed-files.js';
import { companyDirectory, DEMO_SOURCE, generateCompanies } from './generate-companies.js';
import { generateLeads } from './generate-leads.js';
import { generateSignals } from './generate-signals.js';
import { isScale, SCALES } from './scales.js';

const USAGE = `Usage: npm run seed -- [options]

Creates the indices from index-mappings/, generates the deterministic demo data set as feed
records and loads them the way \`npm run ingest\` does, then creates the demo accounts.

  --leads N        leads to generate (default 20000)
  --companies N    companies to generate (default 2000)
  --signals N      signals to generate (default 5000)
  --seed S         seed of the generator, a whole number (default 42)
  --now YYYY-MM-DD the day the data is generated as of (default: today, UTC)
  --prefix P       index prefix (default: INDEX_PREFIX, else "hl")
  --scale S        a benchmark's data set: 20k, 1m or 10m sets --leads, --companies,
                   --signals and --prefix (bench20k, bench1m, bench10m) unless given
                   (docs/performance.md)
  --if-empty       load nothing when the leads index already holds documents
  --no-accounts    create no demo accounts (\`npm run demo\` makes its own key)
  --write-feed DIR write the records to DIR as gzipped NDJSON (companies, leads, signals
                   .ndjson.gz) instead of loading them: input for \`npm run ingest\`
  --changes N      with --write-feed, also leads-changes.ndjson.gz: N of the leads again,
                   their salaries raised and every tenth closed (an upsert to measure)
  --help           show this help

Elasticsearch: ELASTICSEARCH_URL, else the stack started by \`npm run stack:up\`, else http://127.0.0.1:9200.`;

const count = (name: string) =>
  z.coerce
    .number({ error: `--${name} must be a whole number` })
    .int(`--${name} must be a whole number`)
    .min(0, `--${name} cannot be negative`)
    .max(10_000_000, `--${name} can be at most 10,000,000`)
    .optional();

const flagsSchema = z
  .object({
    scale: z
      .string()
      .refine(isScale, `--scale takes ${Object.keys(SCALES).join(', ')}`)
      .optional(),
    leads: count('leads'),
    companies: count('companies'),
    signals: count('signals'),
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
    'write-feed': z.string().min(1, '--write-feed needs a folder').optional(),
    changes: count('changes'),
  })
  .refine(
    (flags) => {
      const { signals, companies } = scaledCounts(flags);
      return signals === 0 || companies > 0;
    },
    { error: '--signals needs companies to report on: give --companies 1 or more, or --signals 0' },
  );

type GivenFlags = {
  scale?: string | undefined;
  leads?: number | undefined;
  companies?: number | undefined;
  signals?: number | undefined;
  changes?: number | undefined;
  prefix?: string | undefined;
};

type Flags = Omit<z.infer<typeof flagsSchema>, 'leads' | 'companies' | 'signals' | 'changes'> & {
  leads: number;
  companies: number;
  signals: number;
  changes: number;
};

/** The counts and prefix given, the rest from `--scale` or the defaults (20,000 leads, 2,000 companies, 5,000 signals). */
function scaledCounts(given: GivenFlags) {
  const scale = given.scale !== undefined && isScale(given.scale) ? SCALES[given.scale] : undefined;
  return {
    leads: given.leads ?? scale?.leads ?? 20_000,
    companies: given.companies ?? scale?.companies ?? 2_000,
    signals: given.signals ?? scale?.signals ?? 5_000,
    changes: given.changes ?? 0,
    prefix: given.prefix ?? scale?.prefix,
  };
}

function report(result: KindReport): string {
  const indexed = result.inserted + result.updated + result.unchanged;
  const rate = result.seconds > 0 ? Math.round(indexed / result.seconds) : indexed;
  const failed = result.failed > 0 ? `, ${result.failed.toLocaleString('en-GB')} FAILED` : '';
  return `${result.kind.padEnd(10)} ${indexed.toLocaleString('en-GB').padStart(10)} indexed${failed} in ${result.seconds.toFixed(1)} s (${rate.toLocaleString('en-GB')} docs/s)`;
}

/** The generated records of each kind, streamed: only the company directory is held in memory. */
function demoRecords(flags: Flags) {
  const options = { seed: flags.seed, now: flags.now };
  const companies = companyDirectory(flags.companies, options);
  return {
    companies: () => generateCompanies(flags.companies, options),
    leads: () => generateLeads(flags.leads, companies, options),
    signals: () => generateSignals(flags.signals, companies, options),
  };
}

/**
 * Loads the generated records through the ingest path into fresh versioned indices and
 * publishes the aliases; false if any record was refused or any document not written.
 */
async function loadData(
  client: Client,
  prefix: string,
  flags: Flags,
  elasticsearchUrl: string,
): Promise<boolean> {
  console.log(
    `Seeding ${elasticsearchUrl} prefix "${prefix}": ${flags.leads.toLocaleString('en-GB')} leads, ` +
      `${flags.companies.toLocaleString('en-GB')} companies, ${flags.signals.toLocaleString('en-GB')} signals ` +
      `(seed ${flags.seed}, as of ${flags.now})`,
  );
  const records = demoRecords(flags);
  const problems: Problem[] = [];
  const totals: Record<FeedKind, number> = {
    companies: flags.companies,
    leads: flags.leads,
    signals: flags.signals,
  };
  const result = await ingest(
    {
      companies: numberedRecords(records.companies()),
      leads: numberedRecords(records.leads()),
      signals: numberedRecords(records.signals()),
    },
    {
      client,
      prefix,
      mode: 'fresh',
      source: DEMO_SOURCE,
      today: flags.now,
      batchSize: 2000,
      onProblem: (problem) => {
        if (problem.severity === 'error') problems.push(problem);
      },
      progress: (kind) => new Progress(kind, totals[kind]),
    },
  );
  for (const kind of result.kinds) console.log(report(kind));
  if (result.rollups) console.log(rollupSummary(result.rollups));
  console.log(`Total time ${result.seconds.toFixed(1)} s.`);
  for (const problem of problems.slice(0, 5)) {
    console.error(`${problem.kind} record ${problem.line}: ${problem.field}: ${problem.reason}`);
  }
  return problems.length === 0 && result.published;
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
    if (flags['write-feed'] !== undefined) {
      const written = await writeFeedFiles(flags['write-feed'], demoRecords(flags), flags.changes);
      for (const file of written)
        console.log(`Wrote ${file.records.toLocaleString('en-GB')} records to ${file.path}`);
      return 0;
    }
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
  const commandLine = readCommandLine(process.argv.slice(2), flagsSchema, ['if-empty', 'no-accounts'], USAGE);
  if ('flags' in commandLine) return seed({ ...commandLine.flags, ...scaledCounts(commandLine.flags) });
  (commandLine.exitCode === 0 ? console.log : console.error)(commandLine.text);
  return commandLine.exitCode;
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
