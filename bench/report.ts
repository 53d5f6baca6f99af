/** What one `npm run bench` measured: one JSON-ready object, and the text tables made from it. */
import type { CpuByProcess } from './cpu.js';
import type { Figures, Ratios, Summary } from './latency.js';
import type { LimitsAcrossProcesses } from './limits.js';

interface PathRun {
  latency: Summary;
  cpuMsPerCall: CpuByProcess;
}

export interface ConcurrencyRun {
  /** The protocol era the /mcp calls were sent in, and its revision. */
  era: string;
  revision: string;
  concurrency: number;
  direct: PathRun;
  mcp: PathRun & {
    mongoCommandsPerCall: number;
    /** Totals over the run, by command name. */
    mongoCommands: Record<string, number>;
  };
  /** `/mcp` over direct, over all calls and per tool. */
  ratios: { all: Ratios; tools: Record<string, Ratios> };
}

export interface BenchResult {
  commit: string;
  machine: { cpus: number; memoryMiB: number };
  data: { indexPrefix: string; leads: number; companies: number; signals: number; rollups: boolean };
  /** `standard` (the same nine calls over and over) or `varied` (bench/mix.ts). */
  mix: string;
  requestsPerRun: number;
  serverProcesses: number;
  mongoCommandsCounted: string;
  notes: string[];
  runs: ConcurrencyRun[];
  /** Peak resident memory (VmHWM) of each server process after the timed runs. */
  serverPeakResidentMiB: number[];
  /** Whether quotas and calls per minute held exactly across the server processes. */
  limits: LimitsAcrossProcesses;
}

const ms = (value: number) => value.toFixed(1).padStart(7);
const times = (value: number) => `x${value.toFixed(2)}`;
const cpu = (value: number | undefined) => (value === undefined ? 'n/a' : value.toFixed(2)).padStart(6);

function latencyRow(tool: string, path: string, figures: Figures): string {
  return `${tool.padEnd(19)} | ${path.padEnd(6)} | ${String(figures.calls).padStart(5)} | ${ms(figures.p50)} | ${ms(figures.p95)} | ${ms(figures.p99)} | ${figures.perSecond.toFixed(1).padStart(7)}`;
}

/** Per tool, throughput is a share of the mixed run, so only the overall throughput ratio says anything. */
function ratioRow(ratio: Ratios, withThroughput: boolean): string {
  const throughput = withThroughput ? `, throughput ${times(ratio.throughput)}` : '';
  return `${''.padEnd(19)} | mcp/es | p50 ${times(ratio.p50)}, p99 ${times(ratio.p99)}${throughput}`;
}

function printRun(run: ConcurrencyRun, log: (line: string) => void): void {
  log(`\nconcurrency ${run.concurrency}, /mcp in ${run.revision} (${run.era})`);
  log('tool                | path   | calls | p50 ms  | p95 ms  | p99 ms  | calls/s');
  log(latencyRow('all', 'direct', run.direct.latency.all));
  log(latencyRow('all', 'mcp', run.mcp.latency.all));
  log(ratioRow(run.ratios.all, true));
  for (const [tool, ratio] of Object.entries(run.ratios.tools)) {
    log(latencyRow(tool, 'direct', run.direct.latency.tools[tool] as Figures));
    log(latencyRow(tool, 'mcp', run.mcp.latency.tools[tool] as Figures));
    log(ratioRow(ratio, false));
  }
  log('CPU ms per call     | server | elasticsearch |  mongo |  bench');
  for (const [path, reading] of [
    ['direct', run.direct.cpuMsPerCall],
    ['mcp', run.mcp.cpuMsPerCall],
  ] as const) {
    log(
      `${path.padEnd(19)} | ${cpu(reading.server)} | ${cpu(reading.elasticsearch).padStart(13)} | ${cpu(reading.mongo)} | ${cpu(reading.bench)}`,
    );
  }
  const commands = Object.entries(run.mcp.mongoCommands)
    .sort(([, a], [, b]) => b - a)
    .map(([name, count]) => `${name} ${(count / run.mcp.latency.all.calls).toFixed(2)}`)
    .join(', ');
  log(
    `MongoDB commands per /mcp call: ${run.mcp.mongoCommandsPerCall.toFixed(2)}${commands ? ` (${commands})` : ''}`,
  );
}

export function printResult(result: BenchResult, log: (line: string) => void): void {
  log(
    `bench: ${result.data.leads.toLocaleString('en-GB')} leads, ${result.data.companies.toLocaleString('en-GB')} companies, ${result.data.signals.toLocaleString('en-GB')} signals (prefix ${result.data.indexPrefix}, ${result.data.rollups ? 'roll-ups ready' : 'no roll-ups: every count reads the roles'}); ` +
      `${result.requestsPerRun} calls per run of the ${result.mix} mix; ${result.serverProcesses} server process(es); ${result.machine.cpus} CPUs, ${result.machine.memoryMiB} MiB; commit ${result.commit}`,
  );
  for (const run of result.runs) printRun(run, log);
  log(`\nA tool's calls/s is its share of the mixed run.`);
  log('CPU: user + system time from /proc per process, over each timed run, divided by its calls.');
  log(`  server = all our server processes; bench = this process (the load generator).`);
  log(`MongoDB commands: ${result.mongoCommandsCounted}.`);
  for (const note of result.notes) log(`note: ${note}`);
  log(
    `server peak resident memory: ${result.serverPeakResidentMiB.map((mib) => `${mib.toFixed(0)} MiB`).join(', ')}`,
  );
  printLimits(result.limits, log);
}

function printLimits(limits: LimitsAcrossProcesses, log: (line: string) => void): void {
  const verdict = (exact: boolean) => (exact ? 'exact' : 'NOT EXACT');
  const refused = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([code, count]) => `${count} ${code}`)
      .join(', ') || 'none';
  const { leadExplores: quota, callsPerMinute: rate } = limits;
  log(`
limits across ${limits.processes} server process(es), calls sent round-robin:`);
  log(
    `  lead_explores quota ${quota.limit}: ${quota.calls} search_leads calls served ${quota.served} leads, the counter says ${quota.counted}: ${verdict(quota.exact)} (refused: ${refused(quota.refused)})`,
  );
  log(
    `  calls_per_minute ${rate.limit}: ${rate.calls} calls in one minute, ${rate.allowed} allowed: ${verdict(rate.exact)} (refused: ${refused(rate.refused)})`,
  );
}
