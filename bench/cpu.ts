/**
 * CPU milliseconds per call for each process on the path of a call: our servers, Elasticsearch,
 * the MongoDB-wire server, and the benchmark itself (the load generator).
 */
import { elasticsearchPaths, runningElasticsearchPid } from '../scripts/stack/elasticsearch-local.js';
import { mongoPaths, runningMongoPid } from '../scripts/stack/mongo-local.js';
import { stackSettings } from '../scripts/stack/settings.js';
import { readStackState } from '../scripts/stack/state.js';
import { stackVersions } from '../scripts/stack/versions.js';
import { cpuMillis } from './proc.js';

type ProcessRole = 'server' | 'elasticsearch' | 'mongo' | 'bench';

export interface WatchedProcesses {
  pids: Partial<Record<Exclude<ProcessRole, 'bench'>, number[]>>;
  /** Why a backend is not measured, e.g. it runs in Docker. */
  notes: string[];
}

/**
 * The backends' pids when `stack:up` started them here as local processes and the benchmark uses
 * that stack; in Docker or elsewhere their CPU is not ours to read from /proc.
 */
export function watchProcesses(
  serverPids: number[],
  urls: { elasticsearchUrl: string; mongodbUri: string },
): WatchedProcesses {
  const settings = stackSettings();
  const state = readStackState(settings.stackDir);
  const watched: WatchedProcesses = { pids: { server: serverPids }, notes: [] };
  const local =
    state?.mode === 'local' &&
    state.elasticsearchUrl === urls.elasticsearchUrl &&
    state.mongodbUri === urls.mongodbUri;
  if (!local) {
    watched.notes.push(
      `Elasticsearch and MongoDB CPU not measured: the stack is ${state?.mode ?? 'not started by stack:up'}, not local processes`,
    );
    return watched;
  }
  const backends = {
    elasticsearch: runningElasticsearchPid(elasticsearchPaths(settings, stackVersions.elasticsearch)),
    mongo: runningMongoPid(mongoPaths(settings, stackVersions.mongoJavaServer)),
  };
  for (const [role, pid] of Object.entries(backends) as Array<[keyof typeof backends, number | undefined]>) {
    if (pid === undefined) watched.notes.push(`${role} CPU not measured: no running pid in the stack folder`);
    else watched.pids[role] = [pid];
  }
  return watched;
}

/** CPU milliseconds (in total or per call) by process; a role is missing when it was not measured. */
export type CpuByProcess = Partial<Record<ProcessRole, number>>;

function readCpu(watched: WatchedProcesses): CpuByProcess {
  const reading: CpuByProcess = { bench: benchCpuMillis() };
  for (const [role, pids] of Object.entries(watched.pids) as Array<[ProcessRole, number[]]>) {
    reading[role] = pids.reduce((total, pid) => total + cpuMillis(pid), 0);
  }
  return reading;
}

function benchCpuMillis(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Runs `phase` and returns its result with the CPU milliseconds each watched process spent meanwhile. */
export async function withCpuSpent<T>(
  watched: WatchedProcesses,
  phase: () => Promise<T>,
): Promise<{ result: T; cpuMs: CpuByProcess }> {
  const before = readCpu(watched);
  const result = await phase();
  const after = readCpu(watched);
  const cpuMs: CpuByProcess = {};
  for (const role of Object.keys(after) as ProcessRole[]) {
    cpuMs[role] = (after[role] ?? 0) - (before[role] ?? 0);
  }
  return { result, cpuMs };
}

export function cpuPerCall(total: CpuByProcess, calls: number): CpuByProcess {
  return Object.fromEntries(Object.entries(total).map(([role, ms]) => [role, ms / calls]));
}
