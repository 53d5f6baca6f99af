import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutPathOf,
  copiedPaths,
  environmentOf,
  execForm,
  finalStage,
  healthcheckCommand,
  onlyInstruction,
  pathsCopiedBy,
  readDockerfile,
} from '../../scripts/dockerfile.js';
import { projectRoot } from '../../scripts/stack/settings.js';
import { type ServerProcess, startServerProcess } from '../fuzz/server-process.js';
import { openDirectServices } from '../support/backend-proxies.js';
import { testEnv } from '../support/backends.js';
import { accountUsageAnswer } from '../support/mcp-client.js';
import { createAccountWithKey } from '../support/test-server.js';

/**
 * The Docker image without Docker: the runtime stage of the Dockerfile replayed in a temporary
 * folder (its COPY and RUN lines in order, its ENV, its CMD with this machine's node), against this
 * run's backends. The build stage's `npm run build` runs in the checkout, so the image gets this
 * checkout's dist/, as `docker build` gets the build stage's.
 */

const execFileAsync = promisify(execFile);

/** Runs a program to completion; its failure names the command and carries its output. */
async function runProgram(program: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  try {
    await execFileAsync(program, args, { ...options, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${[program, ...args].join(' ')} failed in ${options.cwd}:\n${stdout}${stderr}`);
  }
}

const stages = readDockerfile();
const runtime = finalStage(stages);

let imageRoot: string;
let server: ServerProcess;

/**
 * The environment for npm: without the npm_* settings of the `npm test` running this file, which
 * would steer the inner npm, and preferring npm's cache to the registry (same lock, same result).
 */
function npmEnvironment(): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
    npm_config_prefer_offline: 'true',
  };
}

async function replayRuntimeStage(): Promise<void> {
  for (const instruction of runtime.instructions) {
    if (instruction.keyword === 'COPY') {
      for (const copied of pathsCopiedBy(runtime, instruction)) {
        cpSync(checkoutPathOf(stages, copied), path.join(imageRoot, copied.destination), { recursive: true });
      }
    } else if (instruction.keyword === 'RUN') {
      const [program, ...args] = instruction.rest.split(/\s+/);
      // Only npm commands are replayed: anything else would need the image's shell and tools.
      expect(program, `RUN ${instruction.rest}`).toBe('npm');
      await runProgram('npm', args, { cwd: imageRoot, env: npmEnvironment() });
    }
  }
}

/** Runs the image's HEALTHCHECK command as Docker would inside the container; resolves to its exit code. */
function runHealthcheck(port: number): Promise<number | null> {
  const [program, ...args] = healthcheckCommand(runtime);
  expect(program).toBe('node');
  const child = spawn(process.execPath, args, {
    cwd: imageRoot,
    stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '', ...environmentOf(runtime), PORT: String(port) },
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

beforeAll(async () => {
  // The build stage's `npm run build`, in the checkout: its dist/ (git-ignored) is what the image copies.
  // `--noCheck` skips tsc's type check, which `npm run typecheck` makes: with `isolatedModules` and
  // `verbatimModuleSyntax` the JavaScript emitted is the same byte for byte, for a third of the CPU.
  await runProgram('npm', ['run', 'build', '--', '--noCheck'], { cwd: projectRoot, env: npmEnvironment() });
  imageRoot = mkdtempSync(path.join(os.tmpdir(), 'hiring-leads-image-'));
  await replayRuntimeStage();
  const [program, ...nodeArguments] = execForm(onlyInstruction(runtime, 'CMD').rest);
  expect(program).toBe('node');
  // The image's ENV, then this run's backends; the server listens on loopback here, where a
  // container's 0.0.0.0 would be the whole machine's.
  server = await startServerProcess(
    { ...environmentOf(runtime), ...testEnv() },
    { nodeArguments, cwd: imageRoot },
  );
}, 600_000);

afterAll(async () => {
  await server?.stop();
  if (imageRoot) rmSync(imageRoot, { recursive: true, force: true });
});

describe('the runtime image, replayed from the Dockerfile', () => {
  it('holds what the Dockerfile copies and the production dependencies, nothing else', () => {
    const copiedTopLevel = copiedPaths(runtime).map(({ destination }) => destination.split('/')[0]);
    expect(readdirSync(imageRoot).sort()).toEqual([...new Set([...copiedTopLevel, 'node_modules'])].sort());
    const { devDependencies } = JSON.parse(readFileSync(path.join(imageRoot, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const installed = Object.keys(devDependencies).filter((name) =>
      existsSync(path.join(imageRoot, 'node_modules', name)),
    );
    expect(installed).toEqual([]);
  });

  it('passes its HEALTHCHECK, which fails where no server answers', async () => {
    expect(await runHealthcheck(server.port)).toBe(0);
    // Port 1: nothing listens there, so the check must report the container unhealthy.
    expect(await runHealthcheck(1)).not.toBe(0);
  });

  it('answers a tool call made with an API key', async () => {
    const direct = await openDirectServices();
    try {
      const { key } = await createAccountWithKey(direct.services, { plan: 'growth' });
      const answer = await accountUsageAnswer(`${server.baseUrl}/mcp`, key);
      expect(answer.status).toBe(200);
      const result = (answer.json as { result: { isError?: boolean; structuredContent: { plan: string } } })
        .result;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.plan).toBe('growth');
    } finally {
      await direct.close();
    }
  });
});
