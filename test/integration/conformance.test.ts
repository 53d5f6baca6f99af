import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/tools/registry.js';
import { type BearerProxy, startBearerProxy } from '../support/bearer-proxy.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNNER = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/**
 * A Node the conformance suite runs on: it needs 22 or later (it uses `fs.globSync`). This one
 * when it is, else the Node 24 `.ci/run` unpacks into `.cache/` (its `node24_bin`). Without
 * either the suite is skipped, saying why, except under CI (`CI` set), where that is a failure.
 */
function conformanceNode(): { node: string } | { missing: string } {
  if (Number(process.versions.node.split('.')[0]) >= 22) return { node: process.execPath };
  const version = /^node24_version=(\S+)$/m.exec(readFileSync(path.join(ROOT, '.ci/run'), 'utf8'))?.[1];
  const cached = path.join(ROOT, `.cache/node-${version}/bin/node`);
  if (existsSync(cached)) return { node: cached };
  const missing = `the MCP conformance suite needs Node 22 or later and this is ${process.version}, with no Node ${version} at ${cached} (\`.ci/run\` fetches it there; so can its node24_bin steps)`;
  if (process.env.CI) throw new Error(`${missing}. CI must run the conformance suite.`);
  return { missing };
}

/** A scenario's checks, as the runner writes them into its output folder. */
interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}

/** One line per scenario run: its name, then how many checks passed and which did not. */
function summarize(outputDir: string): string[] {
  return readdirSync(outputDir)
    .sort()
    .map((folder) => {
      const checks = JSON.parse(readFileSync(path.join(outputDir, folder, 'checks.json'), 'utf8')) as Check[];
      const name = folder.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
      const passed = checks.filter((check) => check.status === 'SUCCESS').length;
      const others = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
      return `${name}: ${passed} passed${others.map((check) => `; ${check.status} ${check.id}`).join('')}`;
    });
}

const found = conformanceNode();
const describeConformance = 'node' in found ? describe : describe.skip;
if ('missing' in found) console.warn(`Skipping the conformance suite: ${found.missing}`);

/**
 * The MCP conformance suite (@modelcontextprotocol/conformance) run against this server for both
 * revisions it speaks, each with exactly the scenarios that revision requires. The scenarios that
 * cannot apply here (they need the suite's own test tools, prompts, sampling, elicitation or
 * multi-round-trip requests) are listed with why in test/conformance/expected-failures-*.yaml and
 * docs/protocol.md ("Conformance"); the runner fails on any other failure, and on a listed one
 * that passes. The suite sends no credential: a forwarder in front of the server adds the key.
 */
describeConformance(
  `the MCP conformance suite${'missing' in found ? ` (skipped: ${found.missing})` : ''}`,
  () => {
    let server: TestServer;
    let proxy: BearerProxy;
    let outputRoot: string;

    beforeAll(async () => {
      proxy = await startBearerProxy();
      // The suite reaches the server through the forwarder, so that is its address: loopback, for
      // the DNS-rebinding scenario's Host and Origin checks.
      server = await startTestServer({ tools, config: { BASE_URL: `http://127.0.0.1:${proxy.port}` } });
      const { key } = await createAccountWithKey(server.services, { plan: 'scale', callsPerMinute: 100_000 });
      proxy.forwardTo(Number(new URL(server.root).port), key);
      outputRoot = await mkdtemp(path.join(tmpdir(), 'hl-conformance-'));
    });
    afterAll(async () => {
      await proxy?.close();
      await server?.close();
      if (outputRoot) await rm(outputRoot, { recursive: true, force: true });
    });

    it.each([
      '2025-11-25',
      '2026-07-28',
    ])('passes every scenario of the %s requirements that applies', async (revision) => {
      const outputDir = path.join(outputRoot, revision);
      const baseline = path.join(ROOT, `test/conformance/expected-failures-${revision}.yaml`);
      const outcome = await new Promise<{ code: number; output: string }>((resolve) => {
        execFile(
          (found as { node: string }).node,
          [
            RUNNER,
            'server',
            '--url',
            `http://127.0.0.1:${proxy.port}/mcp`,
            '--requirements',
            revision,
            '--expected-failures',
            baseline,
            '--output-dir',
            outputDir,
          ],
          {
            env: { PATH: process.env.PATH, HOME: process.env.HOME },
            timeout: 240_000,
            maxBuffer: 10 * 1024 * 1024,
          },
          (error, stdout, stderr) =>
            resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
        );
      });
      const summary = existsSync(outputDir) ? summarize(outputDir) : [];
      expect(outcome.code, `${summary.join('\n')}\n\n${outcome.output}`).toBe(0);
      expect(outcome.output).toContain('Baseline check passed');
    }, 300_000);
  },
);
