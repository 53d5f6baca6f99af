import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpClient } from './http-client.js';

/** Lines the server logged at `error`; kept up to this many, counted beyond. */
const KEPT_ERROR_LINES = 20;

export interface ServerProcess {
  pid: number;
  port: number;
  baseUrl: string;
  client: HttpClient;
  /** Resident memory of the server process, from /proc. */
  rssBytes(): number;
  /** The most resident memory it has had. */
  peakRssBytes(): number;
  alive(): boolean;
  /** Settles when the process has exited. */
  exited: Promise<void>;
  /** Lines logged at `error` level so far (the first few) and how many there were. */
  errorLog(): { count: number; lines: string[] };
  /** Its last lines of output, for a failure message. */
  recentOutput(): string;
  /** Everything it has written to stdout and stderr so far: its whole log once it has exited. */
  output(): string;
  stop(): Promise<void>;
  /** Ends it at once with SIGKILL, as a crash or an out-of-memory kill would: nothing of it runs after. */
  kill(): void;
}

/**
 * The real server as its own process, from the sources (`node --import tsx src/main.ts`, as
 * `npm run start:stack` runs it) unless `command` gives node's arguments and folder (the compiled
 * server of an image), on a free loopback port. `env` holds the backends of the test run; the
 * server logs at `warn`, so anything it logs is a finding worth reading.
 */
export async function startServerProcess(
  env: Record<string, string>,
  command: { nodeArguments: readonly string[]; cwd: string } = {
    nodeArguments: ['--import', 'tsx', 'src/main.ts'],
    cwd: process.cwd(),
  },
): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, command.nodeArguments, {
    cwd: command.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Not process.env: vitest adds Vite's BASE_URL ("/"), and the server must see only its own settings.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'warn',
      // A secret of its own unless the run provides one, so no token can be forged with a known value.
      SERVER_SECRET: randomBytes(48).toString('base64'),
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      BASE_URL: baseUrl,
    },
  });
  const output: string[] = [];
  const everything: Buffer[] = [];
  const errors: string[] = [];
  let errorCount = 0;
  const collect = (chunk: Buffer) => {
    everything.push(chunk);
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      output.push(line);
      if (output.length > 50) output.shift();
      if (/"level":"error"/.test(line)) {
        errorCount++;
        if (errors.length < KEPT_ERROR_LINES) errors.push(line);
      }
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const client = new HttpClient('127.0.0.1', port);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: ServerProcess = {
    pid: child.pid ?? -1,
    port,
    baseUrl,
    client,
    rssBytes: () => memoryFigure(child, 'VmRSS'),
    peakRssBytes: () => memoryFigure(child, 'VmHWM'),
    alive: () => child.exitCode === null && child.signalCode === null,
    exited,
    errorLog: () => ({ count: errorCount, lines: [...errors] }),
    recentOutput: () => output.join('\n'),
    output: () => Buffer.concat(everything).toString('utf8'),
    stop: async () => {
      client.close();
      if (!server.alive()) return;
      child.kill('SIGTERM');
      await exited;
    },
    kill: () => {
      child.kill('SIGKILL');
    },
  };
  await waitUntilHealthy(server, child);
  return server;
}

async function waitUntilHealthy(server: ServerProcess, child: ChildProcess): Promise<void> {
  // Starting means compiling the TypeScript on the fly: seconds on a busy two-core machine.
  for (let attempt = 0; attempt < 300; attempt++) {
    if (!server.alive()) break;
    try {
      const answer = await server.client.send({ method: 'GET', path: '/healthz', headers: {} });
      if (answer.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error(`the server process did not start:\n${server.recentOutput()}`);
}

function memoryFigure(child: ChildProcess, name: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kib = new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1];
  if (kib === undefined) throw new Error(`no ${name} in /proc/${child.pid}/status`);
  return Number(kib) * 1024;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
