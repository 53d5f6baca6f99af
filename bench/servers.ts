/**
 * The benchmark's own server processes, one per port, each a child of this process, run as the image
 * runs the server: the compiled `dist/` (built first) started by the Dockerfile's CMD with its ENV,
 * rather than the TypeScript sources through a loader.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  environmentOf,
  execForm,
  finalStage,
  onlyInstruction,
  readDockerfile,
} from '../scripts/dockerfile.js';
import { buildViews } from '../scripts/views/build-views.js';

const METRICS_PORT_OFFSET = 1000;

export interface BenchServers {
  /** The `/mcp` endpoint of each process, for the benchmark's round-robin. */
  urls: string[];
  /** Each process's metrics (`METRICS_PORT` = its port + METRICS_PORT_OFFSET), for counting its MongoDB commands. */
  metricsUrls: string[];
  pids: number[];
  /** Each process's log (stderr), written at the image's own level as in production. */
  logFiles: string[];
  stop(): void;
}

/**
 * With `profileDir`, each process writes a V8 CPU profile there when it stops (`--cpu-prof`), which
 * `npm run bench:profile -- <dir>` sums up by package and function.
 */
export async function startServers(
  count: number,
  firstPort: number,
  profileDir: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<BenchServers> {
  // Each process reads the built views at start.
  await buildViews();
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
  const image = finalStage(readDockerfile());
  const [, ...nodeArguments] = execForm(onlyInstruction(image, 'CMD').rest);
  const ports = Array.from({ length: count }, (_, index) => firstPort + index);
  const profiling = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const child of children) child.kill('SIGTERM');
  };
  try {
    for (const port of ports) {
      // Logged as the image logs (at `info` unless LOG_LEVEL is set here: a line per request and
      // per tool call), into a file rather than this terminal; the child keeps its own descriptor.
      const log = openSync(logFileOf(port), 'w');
      children.push(
        spawn(process.execPath, [...profiling, ...nodeArguments], {
          stdio: ['ignore', 'ignore', log],
          env: {
            ...env,
            ...environmentOf(image),
            // The image listens on its container's own network; here that would be the machine's.
            HOST: '127.0.0.1',
            PORT: String(port),
            METRICS_PORT: String(port + METRICS_PORT_OFFSET),
          },
        }),
      );
      closeSync(log);
    }
    await Promise.all(ports.map(untilReady));
  } catch (error) {
    stop();
    throw error;
  }
  return {
    urls: ports.map((port) => `http://127.0.0.1:${port}/mcp`),
    metricsUrls: ports.map((port) => `http://127.0.0.1:${port + METRICS_PORT_OFFSET}/metrics`),
    pids: children.map((child) => child.pid as number),
    logFiles: ports.map(logFileOf),
    stop,
  };
}

function logFileOf(port: number): string {
  return join(tmpdir(), `hiring-leads-bench-server-${port}.log`);
}

async function untilReady(port: number): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error(`the server on port ${port} did not become ready; its log: ${logFileOf(port)}`);
}
