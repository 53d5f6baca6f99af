/**
 * `npm run bench`: the same mix of search_leads, search_companies and get_market_insights calls
 * (a) straight against Elasticsearch with the requests the tools make and (b) through /mcp
 * with an API key, in each protocol era (`--eras`) at each concurrency: latency percentiles and
 * throughput over all calls and per tool, their ratio, CPU milliseconds per call of each process on
 * the path, MongoDB commands per call and the servers' peak memory. `--json [FILE]` writes the same
 * as one JSON object.
 * `--mix varied` varies the arguments from call to call (bench/mix.ts); `--scale 20k|1m|10m` reads
 * the data set `npm run seed -- --scale` loads, with its number of calls and warm-up.
 * Runs against the seeded stack (`npm run stack:up && npm run seed -- --leads N ...`).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { useStackUrlsUnlessSet } from '../scripts/stack/state.js';
import { isScale, SCALES } from '../seed/scales.js';
import { parseConfig } from '../src/config.js';
import { parseToolArguments } from '../src/mcp/arguments.js';
import { marketInsightsInput, searchCompaniesInput, searchLeadsInput } from '../src/schemas/inputs.js';
import { buildCompanyRanking } from '../src/search/company-query.js';
import { FIRST_PAGE } from '../src/search/cursor.js';
import { buildInsightsQuery } from '../src/search/insights-query.js';
import { buildLeadSearch } from '../src/search/lead-query.js';
import { createElasticsearchClient, indexNames } from '../src/stores/elasticsearch.js';
import { SearchIndexStore } from '../src/stores/search-index.js';
import { rankCompanies } from '../src/tools/search-companies.js';
import { BenchAccounts } from './accounts.js';
import { type CpuByProcess, cpuPerCall, type WatchedProcesses, watchProcesses, withCpuSpent } from './cpu.js';
import { ratios, summarise, type Timing } from './latency.js';
import { checkLimitsAcrossProcesses } from './limits.js';
import { callTool, closeConnections, ERA_REVISIONS, type Era } from './mcp-client.js';
import { type Call, MIX, variedCall } from './mix.js';
import { COUNTED, mongoCommandsSent } from './mongo-commands.js';
import { peakResidentMiB } from './proc.js';
import { type BenchResult, type ConcurrencyRun, printResult } from './report.js';
import { startServers } from './servers.js';

/** `--json` alone writes the JSON to stdout; `--json FILE` (or `--json=FILE`) to a file. */
function takeJsonFlag(args: string[]): { json: boolean; jsonFile?: string } {
  const at = args.findIndex((arg) => arg === '--json' || arg.startsWith('--json='));
  if (at < 0) return { json: false };
  const [flag = '', next] = [args[at], args[at + 1]];
  if (flag.startsWith('--json=')) {
    args.splice(at, 1);
    return { json: true, jsonFile: flag.slice('--json='.length) };
  }
  const file = next !== undefined && !next.startsWith('--') ? next : undefined;
  args.splice(at, file ? 2 : 1);
  return { json: true, ...(file && { jsonFile: file }) };
}

const args = process.argv.slice(2);
const output = takeJsonFlag(args);
const flags = parseArgs({
  args,
  options: {
    requests: { type: 'string' },
    concurrency: { type: 'string', default: '1,16' },
    port: { type: 'string', default: '3999' },
    processes: { type: 'string', default: '1' },
    profile: { type: 'string' },
    warmup: { type: 'string' },
    rounds: { type: 'string', default: '4' },
    eras: { type: 'string', default: 'legacy,modern' },
    scale: { type: 'string' },
    mix: { type: 'string', default: 'standard' },
  },
}).values;
const scale = flags.scale === undefined ? undefined : isScale(flags.scale) ? SCALES[flags.scale] : undefined;
if (flags.scale !== undefined && scale === undefined) {
  throw new Error(`--scale takes ${Object.keys(SCALES).join(', ')}, not "${flags.scale}"`);
}
if (flags.mix !== 'standard' && flags.mix !== 'varied') {
  throw new Error(`--mix takes standard or varied, not "${flags.mix}"`);
}
/** Call `id` of the mix. */
const callAt = flags.mix === 'varied' ? variedCall : (id: number) => MIX[id % MIX.length] as Call;
const requests = Number(flags.requests ?? scale?.requests ?? 270);
const concurrencies = String(flags.concurrency).split(',').map(Number);
const processCount = Number(flags.processes);
const eras = String(flags.eras).split(',') as Era[];
for (const era of eras) {
  if (!(era in ERA_REVISIONS))
    throw new Error(`--eras takes legacy (2025-11-25) and modern (2026-07-28), not "${era}"`);
}
const warmupCalls = Number(flags.warmup ?? scale?.warmup ?? 3000);
if (!Number.isInteger(warmupCalls) || warmupCalls < 0) throw new Error('--warmup must be a whole number ≥ 0');
/** Warm-up calls run side by side, to be done sooner; how many at once does not change what they warm. */
const WARMUP_CONCURRENCY = 8;
const rounds = Number(flags.rounds);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > requests) {
  throw new Error('--rounds must be a whole number from 1 to --requests');
}
if (!Number.isInteger(processCount) || processCount < 1)
  throw new Error('--processes must be a whole number ≥ 1');
/** With the JSON on stdout, the tables go to stderr so stdout stays one JSON object. */
const log = (line: string) => (output.json && !output.jsonFile ? console.error(line) : console.log(line));

useStackUrlsUnlessSet(process.env);
// The benchmark's own server needs a secret; nothing it signs outlives the run.
const serverSecret = process.env.SERVER_SECRET || randomBytes(48).toString('base64');
const settings = parseConfig({
  ...process.env,
  ...(scale && { INDEX_PREFIX: scale.prefix }),
  PORT: flags.port,
  SERVER_SECRET: serverSecret,
});
const elasticsearch = createElasticsearchClient({ ...settings, BACKEND_TIMEOUT_MS: 30000 });
const indices = indexNames(settings.INDEX_PREFIX);
const searchIndex = new SearchIndexStore(elasticsearch, indices);

/**
 * The Elasticsearch requests each tool makes for its first page, so (a) measures Elasticsearch
 * alone: the searches (on the roll-ups when the tools would read them), and for search_companies
 * also the fetch of the ranked companies' profiles.
 */
async function directCall(call: Call, now: Date, rollups: boolean): Promise<void> {
  switch (call.tool) {
    case 'search_leads': {
      const args = parseToolArguments(searchLeadsInput, call.args);
      await elasticsearch.search({
        index: indices.leads,
        ...buildLeadSearch(args, FIRST_PAGE, args.page_size, now).body,
      });
      return;
    }
    case 'search_companies': {
      const args = parseToolArguments(searchCompaniesInput, call.args);
      const { body } = buildCompanyRanking(args, now, { offset: 0, size: args.page_size }, { rollups });
      const ids = (await rankCompanies(searchIndex, body, args.min_open_roles)).companies.map(
        (company) => company.companyId,
      );
      if (ids.length > 0) await elasticsearch.mget({ index: indices.companies, ids });
      return;
    }
    case 'get_market_insights': {
      const args = parseToolArguments(marketInsightsInput, call.args);
      const { body } = buildInsightsQuery(args, now, { rollups });
      await elasticsearch.search({ index: indices[body.index], ...body.body });
      return;
    }
  }
}

async function viaMcp(call: Call, url: URL, apiKey: string, id: number, era: Era): Promise<void> {
  const answer = await callTool(url, apiKey, id, call.tool, call.args, era);
  if (answer.isError) throw new Error(`${call.tool} failed: ${answer.errorCode}`);
}

/**
 * Sends `calls` calls of the mix from `concurrency` workers, the mix going on from call number
 * `firstId`; returns each call's latency and the seconds the whole took.
 */
async function measure(
  concurrency: number,
  send: (call: Call, id: number) => Promise<unknown>,
  calls: number,
  firstId = 0,
): Promise<{ timings: Timing[]; seconds: number }> {
  const timings: Timing[] = [];
  let next = firstId;
  const started = performance.now();
  const worker = async () => {
    for (let id = next++; id < firstId + calls; id = next++) {
      const call = callAt(id);
      const t0 = performance.now();
      await send(call, id);
      timings.push({ tool: call.tool, ms: performance.now() - t0 });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { timings, seconds: (performance.now() - started) / 1000 };
}

/** One path's calls over the rounds of a run: their latencies, the seconds they took, the CPU spent. */
interface PathTally {
  timings: Timing[];
  seconds: number;
  cpuMs: CpuByProcess;
}

async function addSlice(
  tally: PathTally,
  watched: WatchedProcesses,
  slice: () => Promise<{ timings: Timing[]; seconds: number }>,
): Promise<void> {
  const { result, cpuMs } = await withCpuSpent(watched, slice);
  tally.timings.push(...result.timings);
  tally.seconds += result.seconds;
  tally.cpuMs = addByName(tally.cpuMs, cpuMs);
}

function commitUnderTest(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} with uncommitted changes` : commit;
  } catch {
    return 'unknown';
  }
}

async function documentCount(index: string): Promise<number> {
  return (await elasticsearch.count({ index })).count;
}

function difference(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([name, count]): [string, number] => [name, count - (before[name] ?? 0)])
      .filter(([, count]) => count > 0),
  );
}

/** Adds up two tallies by name: CPU milliseconds by process, MongoDB commands by command. */
function addByName<Tally extends Partial<Record<string, number>>>(total: Tally, more: Tally): Tally {
  const sum: Partial<Record<string, number>> = { ...total };
  for (const [name, count] of Object.entries(more)) sum[name] = (sum[name] ?? 0) + (count ?? 0);
  return sum as Tally;
}

/**
 * The run of one era at one concurrency: `requests` calls on each path, in `rounds` slices that
 * alternate direct, /mcp, /mcp, direct, ..., so that what drifts on this machine during a run (the
 * engine's garbage collection and caches, other tenants of the host) falls on both paths alike.
 */
async function runAt(
  era: Era,
  concurrency: number,
  watched: WatchedProcesses,
  metricsUrls: readonly string[],
  sendMcp: (call: Call, id: number) => Promise<void>,
  rollups: boolean,
): Promise<ConcurrencyRun> {
  const now = new Date();
  const direct: PathTally = { timings: [], seconds: 0, cpuMs: {} };
  const mcp: PathTally = { timings: [], seconds: 0, cpuMs: {} };
  let mongoCommands: Record<string, number> = {};
  const sendDirect = (call: Call) => directCall(call, now, rollups);
  for (let round = 0, firstId = 0; round < rounds; round++) {
    const calls = Math.floor((requests * (round + 1)) / rounds) - firstId;
    const slice = (send: (call: Call, id: number) => Promise<unknown>) => () =>
      measure(concurrency, send, calls, firstId);
    const mcpSlice = async () => {
      const before = await mongoCommandsSent(metricsUrls);
      await addSlice(mcp, watched, slice(sendMcp));
      mongoCommands = addByName(mongoCommands, difference(await mongoCommandsSent(metricsUrls), before));
    };
    const directSlice = () => addSlice(direct, watched, slice(sendDirect));
    for (const path of round % 2 === 0 ? [directSlice, mcpSlice] : [mcpSlice, directSlice]) await path();
    firstId += calls;
  }
  const directSummary = summarise(direct.timings, direct.seconds);
  const mcpSummary = summarise(mcp.timings, mcp.seconds);
  const total = Object.values(mongoCommands).reduce((sum, count) => sum + count, 0);
  return {
    era,
    revision: ERA_REVISIONS[era],
    concurrency,
    direct: { latency: directSummary, cpuMsPerCall: cpuPerCall(direct.cpuMs, requests) },
    mcp: {
      latency: mcpSummary,
      cpuMsPerCall: cpuPerCall(mcp.cpuMs, requests),
      mongoCommandsPerCall: total / requests,
      mongoCommands,
    },
    ratios: {
      all: ratios(mcpSummary.all, directSummary.all),
      tools: Object.fromEntries(
        Object.entries(mcpSummary.tools).flatMap(([tool, figures]) => {
          const baseline = directSummary.tools[tool];
          return baseline ? [[tool, ratios(figures, baseline)]] : [];
        }),
      ),
    },
  };
}

async function main(): Promise<void> {
  const accounts = await BenchAccounts.open(settings);
  const { key: apiKey } = await accounts.create();
  const servers = await startServers(processCount, settings.PORT, flags.profile, {
    ...process.env,
    SERVER_SECRET: serverSecret,
    ELASTICSEARCH_URL: settings.ELASTICSEARCH_URL,
    MONGODB_URI: settings.MONGODB_URI,
    INDEX_PREFIX: settings.INDEX_PREFIX,
  });
  // Round-robin over the server processes, as a load balancer in front of them would.
  const urls = servers.urls.map((url) => new URL(url));
  const sendMcp = (era: Era) => (call: Call, id: number) =>
    viaMcp(call, urls[id % urls.length] as URL, apiKey, id, era);
  try {
    const watched = watchProcesses(servers.pids, {
      elasticsearchUrl: settings.ELASTICSEARCH_URL,
      mongodbUri: settings.MONGODB_URI,
    });
    const now = new Date();
    // Whether the servers' company rankings and insights read the roll-ups (ROLLUPS, and ready for
    // the live leads index); the direct calls do as they do.
    const rollups = settings.ROLLUPS === 'on' && (await searchIndex.rollupsReady());
    // Untimed calls on both paths first: a server that has been up for a while has had its code
    // optimised by V8 and the JVMs, and its caches filled, and that is the server worth measuring.
    // Every server process gets at least a pass of the mix.
    const warmup = Math.max(warmupCalls, MIX.length * servers.urls.length);
    await measure(WARMUP_CONCURRENCY, (call) => directCall(call, now, rollups), warmup);
    for (const era of eras) await measure(WARMUP_CONCURRENCY, sendMcp(era), warmup);
    const runs: ConcurrencyRun[] = [];
    for (const era of eras) {
      for (const concurrency of concurrencies) {
        runs.push(await runAt(era, concurrency, watched, servers.metricsUrls, sendMcp(era), rollups));
      }
    }
    const serverPeakResidentMiB = servers.pids.map(peakResidentMiB);
    const limits = await checkLimitsAcrossProcesses(urls, accounts);
    const result: BenchResult = {
      commit: commitUnderTest(),
      machine: { cpus: os.availableParallelism(), memoryMiB: Math.round(os.totalmem() / 2 ** 20) },
      data: {
        indexPrefix: settings.INDEX_PREFIX,
        leads: await documentCount(indices.leads),
        companies: await documentCount(indices.companies),
        signals: await documentCount(indices.signals),
        rollups,
      },
      requestsPerRun: requests,
      mix: flags.mix,
      serverProcesses: servers.pids.length,
      mongoCommandsCounted: COUNTED,
      notes: watched.notes,
      runs,
      serverPeakResidentMiB,
      limits,
    };
    printResult(result, log);
    log(`server logs (LOG_LEVEL ${settings.LOG_LEVEL}): ${servers.logFiles.join(', ')}`);
    if (!limits.leadExplores.exact || !limits.callsPerMinute.exact) process.exitCode = 1;
    if (output.json) {
      const json = `${JSON.stringify(result, null, 2)}\n`;
      if (output.jsonFile) writeFileSync(output.jsonFile, json);
      else process.stdout.write(json);
    }
  } finally {
    closeConnections();
    servers.stop();
    await Promise.all([elasticsearch.close(), accounts.close()]);
  }
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
