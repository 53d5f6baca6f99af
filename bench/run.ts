/**
 * `npm run bench`: the same mix of search_leads, search_companies and get_market_insights calls
 * (a) straight against Elasticsearch with the query bodies the tools build and (b) through /mcp
 * with an API key, at each concurrency, printing latency percentiles, throughput and their ratio.
 * Runs against the seeded stack (`npm run stack:up && npm run seed -- --leads N ...`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { useStackUrlsUnlessSet } from '../scripts/stack/state.js';
import { SCOPES } from '../src/auth/scopes.js';
import { parseConfig } from '../src/config.js';
import { parseToolArguments } from '../src/mcp/arguments.js';
import { marketInsightsInput, searchCompaniesInput, searchLeadsInput } from '../src/schemas/inputs.js';
import { buildCompanyRanking } from '../src/search/company-query.js';
import { FIRST_PAGE } from '../src/search/cursor.js';
import { buildInsightsQuery } from '../src/search/insights-query.js';
import { buildLeadSearch } from '../src/search/lead-query.js';
import { AccountsStore } from '../src/stores/accounts.js';
import { ApiKeysStore } from '../src/stores/api-keys.js';
import { createElasticsearchClient, indexNames } from '../src/stores/elasticsearch.js';
import { connectMongo } from '../src/stores/mongo.js';

interface Call {
  tool: 'search_leads' | 'search_companies' | 'get_market_insights';
  args: Record<string, unknown>;
}

/** A mix an analyst's script might send: broad and narrow searches, rankings and aggregations. */
const MIX: readonly Call[] = [
  { tool: 'search_leads', args: { title: 'engineer', location: 'London' } },
  { tool: 'search_leads', args: { skills: ['Python', 'Go'], work_type: 'Remote', page_size: 25 } },
  { tool: 'search_leads', args: { location: 'Berlin', radius_km: 50, experience_level: 'Senior' } },
  {
    tool: 'search_leads',
    args: { min_annual_salary: 80000, salary_currency: 'EUR', posted_within_days: 30 },
  },
  { tool: 'search_companies', args: { skills: ['TypeScript'] } },
  { tool: 'search_companies', args: { location: 'GB', min_open_roles: 3 } },
  { tool: 'get_market_insights', args: { group_by: 'skill', filters: { location: 'DE' } } },
  { tool: 'get_market_insights', args: { group_by: 'posted_month', metric: 'salary', currency: 'USD' } },
  { tool: 'get_market_insights', args: { group_by: 'city', breakdown_by: 'experience_level', limit: 20 } },
];

const flags = parseArgs({
  options: {
    requests: { type: 'string', default: '270' },
    concurrency: { type: 'string', default: '1,16' },
    port: { type: 'string', default: '3999' },
  },
}).values;
const requests = Number(flags.requests);
const concurrencies = String(flags.concurrency).split(',').map(Number);

useStackUrlsUnlessSet(process.env);
// The benchmark's own server needs a secret; nothing it signs outlives the run.
const serverSecret = process.env.SERVER_SECRET || randomBytes(48).toString('base64');
const settings = parseConfig({ ...process.env, PORT: flags.port, SERVER_SECRET: serverSecret });
const elasticsearch = createElasticsearchClient({ ...settings, BACKEND_TIMEOUT_MS: 30000 });
const indices = indexNames(settings.INDEX_PREFIX);

/** The request body each tool builds for its first page, so (a) measures Elasticsearch alone. */
function directSearch(call: Call, now: Date) {
  switch (call.tool) {
    case 'search_leads': {
      const args = parseToolArguments(searchLeadsInput, call.args);
      return { index: indices.leads, ...buildLeadSearch(args, FIRST_PAGE, args.page_size, now).body };
    }
    case 'search_companies': {
      const args = parseToolArguments(searchCompaniesInput, call.args);
      return {
        index: indices.leads,
        ...buildCompanyRanking(args, now, { offset: 0, size: args.page_size }).body,
      };
    }
    case 'get_market_insights': {
      const args = parseToolArguments(marketInsightsInput, call.args);
      return { index: indices.leads, ...buildInsightsQuery(args, now).body };
    }
  }
}

async function viaMcp(call: Call, url: string, apiKey: string, id: number): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${apiKey}`,
      'Content-Type': 'application/json',
      Accept: 'application/json',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: call.tool, arguments: call.args },
    }),
  });
  const body = (await response.json()) as {
    result?: { isError?: boolean; content?: Array<{ text: string }> };
  };
  if (!response.ok || body.result?.isError) {
    throw new Error(`${call.tool} failed: ${response.status} ${body.result?.content?.[0]?.text ?? ''}`);
  }
}

interface Figures {
  p50: number;
  p95: number;
  p99: number;
  perSecond: number;
}

async function measure(concurrency: number, send: (call: Call, id: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let id = next++; id < requests; id = next++) {
      const call = MIX[id % MIX.length] as Call;
      const t0 = performance.now();
      await send(call, id);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    perSecond: latencies.length / seconds,
  } satisfies Figures;
}

async function createBenchKey(): Promise<string> {
  const mongo = await connectMongo(settings);
  try {
    const accounts = new AccountsStore(mongo.db);
    const apiKeys = new ApiKeysStore(mongo.db);
    const now = new Date();
    const account = await accounts.create({
      email: `bench-${now.getTime()}@hiring-leads.example`,
      plan: 'scale',
      subscription_status: 'active',
      now,
    });
    // A benchmark measures speed, not the plan's limits.
    await accounts.update(
      account._id,
      {
        quota_overrides: { lead_explores: null, company_explores: null, insight_queries: null },
        calls_per_minute_override: 1_000_000,
      },
      now,
    );
    return (await apiKeys.create(account._id, [...SCOPES], now)).key;
  } finally {
    await mongo.client.close();
  }
}

async function startServer(): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(settings.PORT),
      LOG_LEVEL: 'warn',
      SERVER_SECRET: serverSecret,
      ELASTICSEARCH_URL: settings.ELASTICSEARCH_URL,
      MONGODB_URI: settings.MONGODB_URI,
    },
  });
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${settings.PORT}/readyz`)).ok) return server;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  server.kill();
  throw new Error('the server did not become ready');
}

function peakMemoryMiB(pid: number | undefined): string {
  if (pid === undefined) return 'n/a';
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const peak = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return peak ? `${(Number(peak) / 1024).toFixed(0)} MiB` : 'n/a';
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main(): Promise<void> {
  const count = await elasticsearch.count({ index: indices.leads });
  console.log(
    `bench: ${count.count.toLocaleString('en-GB')} leads in ${indices.leads}; ${requests} calls per run over a mix of ${MIX.length}`,
  );
  const apiKey = await createBenchKey();
  const server = await startServer();
  const url = `http://127.0.0.1:${settings.PORT}/mcp`;
  try {
    const now = new Date();
    // One untimed pass warms caches on both paths.
    for (const [id, call] of MIX.entries()) {
      await elasticsearch.search(directSearch(call, now));
      await viaMcp(call, url, apiKey, id);
    }
    console.log('\nconcurrency | path   |     p50 |     p95 |     p99 | calls/s');
    for (const concurrency of concurrencies) {
      const direct = await measure(concurrency, (call) => elasticsearch.search(directSearch(call, now)));
      const mcp = await measure(concurrency, (call, id) => viaMcp(call, url, apiKey, id));
      for (const [path, figures] of [
        ['direct', direct],
        ['mcp', mcp],
      ] as const) {
        console.log(
          `${String(concurrency).padStart(11)} | ${path.padEnd(6)} | ${ms(figures.p50).padStart(7)} | ${ms(figures.p95).padStart(7)} | ${ms(figures.p99).padStart(7)} | ${figures.perSecond.toFixed(1).padStart(7)}`,
        );
      }
      console.log(
        `${' '.repeat(11)} | ratio  | p50 x${(mcp.p50 / direct.p50).toFixed(2)}, p99 x${(mcp.p99 / direct.p99).toFixed(2)}, throughput x${(mcp.perSecond / direct.perSecond).toFixed(2)} (mcp / direct)`,
      );
    }
    console.log(`\nserver peak resident memory: ${peakMemoryMiB(server.pid)}`);
  } finally {
    server.kill('SIGTERM');
    await elasticsearch.close();
  }
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
