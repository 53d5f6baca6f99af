import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import type { TestProject } from 'vitest/node';
import { stackDown, stackUp, useDocker } from '../scripts/stack/commands.js';
import { elasticsearchHealthy, mongoAnswers } from '../scripts/stack/health.js';
import { jitOptions, stackSettings } from '../scripts/stack/settings.js';
import { readStackUrls, type StackUrls } from '../scripts/stack/state.js';
import { elasticsearchImage, stackVersions } from '../scripts/stack/versions.js';
import { buildViews } from '../scripts/views/build-views.js';
import type { TestBackends } from './support/backends.js';
import { compileSources } from './support/compiled-sources.js';
import { credentialsInLog } from './support/log-scan.js';
import { seedTestData, writeSeedOutcome } from './support/seed-command.js';

interface Provisioned {
  urls: StackUrls;
  source: string;
  release(): Promise<void>;
}

/**
 * Finds backends for the integration tests, in this order: ELASTICSEARCH_URL and MONGODB_URI;
 * a stack already started by `stack:up` (its URLs are in .stack/state.json); testcontainers when
 * a Docker engine answers; else the local build, started here and stopped at teardown.
 */
async function provision(): Promise<Provisioned> {
  const { ELASTICSEARCH_URL, MONGODB_URI } = process.env;
  if (ELASTICSEARCH_URL && MONGODB_URI) {
    return {
      urls: { elasticsearchUrl: ELASTICSEARCH_URL, mongodbUri: MONGODB_URI },
      source: 'environment',
      release: async () => {},
    };
  }
  const running = readStackUrls();
  if (
    running &&
    (await elasticsearchHealthy(running.elasticsearchUrl)) &&
    (await mongoAnswers(running.mongodbUri))
  ) {
    return { urls: running, source: 'running stack', release: async () => {} };
  }
  // A stack started here lives for this run only: its JVMs compile quickly (docs/stack.md, STACK_JIT).
  const env = { ...process.env, STACK_JIT: process.env.STACK_JIT || 'quick' };
  if (await useDocker(stackSettings(env))) return startContainers(env);
  const state = await stackUp(env);
  return { urls: state, source: `stack:up (${state.mode})`, release: () => stackDown() };
}

async function startContainers(env: NodeJS.ProcessEnv): Promise<Provisioned> {
  const [elasticsearch, mongo] = await Promise.all([
    new GenericContainer(elasticsearchImage())
      .withEnvironment({
        'discovery.type': 'single-node',
        'xpack.security.enabled': 'false',
        'cluster.routing.allocation.disk.threshold_enabled': 'false',
        ES_JAVA_OPTS: ['-Xms1g', '-Xmx1g', ...jitOptions(stackSettings(env))].join(' '),
      })
      .withExposedPorts(9200)
      .withWaitStrategy(Wait.forHttp('/_cluster/health', 9200).forStatusCode(200))
      .withStartupTimeout(240_000)
      .start(),
    new GenericContainer(stackVersions.mongoImage).withExposedPorts(27017).start(),
  ]);
  const address = (container: StartedTestContainer, port: number) =>
    `${container.getHost()}:${container.getMappedPort(port)}`;
  return {
    urls: {
      elasticsearchUrl: `http://${address(elasticsearch, 9200)}`,
      mongodbUri: `mongodb://${address(mongo, 27017)}/?directConnection=true`,
    },
    source: 'testcontainers',
    release: async () => {
      await Promise.all([elasticsearch.stop(), mongo.stop()]);
    },
  };
}

async function elasticsearchRequest(url: string, method: string, path: string): Promise<unknown> {
  const response = await fetch(new URL(path, url), { method });
  if (!response.ok && response.status !== 404) {
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  }
  return response.json();
}

/**
 * Deletes the run's indices by name (wildcard deletes are refused while
 * `action.destructive_requires_name` is on), its index templates, and its database.
 */
async function removeRunData(backends: TestBackends): Promise<void> {
  const { elasticsearchUrl, indexPrefix } = backends;
  const indices = (await elasticsearchRequest(
    elasticsearchUrl,
    'GET',
    `/_cat/indices/${indexPrefix}-*?format=json&h=index&expand_wildcards=all`,
  )) as { index: string }[];
  if (indices.length > 0) {
    await elasticsearchRequest(
      elasticsearchUrl,
      'DELETE',
      `/${indices.map((entry) => entry.index).join(',')}`,
    );
  }
  await elasticsearchRequest(elasticsearchUrl, 'DELETE', `/_index_template/${indexPrefix}-*`);

  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(backends.mongodbUri, { serverSelectionTimeoutMS: 5_000 });
  try {
    await client.db(backends.mongoDb).dropDatabase();
  } finally {
    await client.close();
  }
}

/**
 * The file every in-process test server of the run logs to (test/support/run-log.ts), and the
 * check made on it once every test has run: no API key, access token, bearer header, test password
 * or the run's server secret in any line. A teardown that throws does not fail a vitest run, so a
 * finding sets the exit code; the log is then kept for reading, and removed otherwise.
 */
function startRunLog(backends: TestBackends): { file: string; check(): void } {
  const folder = mkdtempSync(path.join(tmpdir(), 'hiring-leads-run-log-'));
  const file = path.join(folder, 'servers.jsonl');
  return {
    file,
    check: () => {
      let log = '';
      try {
        log = readFileSync(file, 'utf8');
      } catch {
        // No test started a server.
      }
      const findings = credentialsInLog(log, { 'the run’s SERVER_SECRET': backends.serverSecret });
      if (findings.length === 0) {
        const lines = log.split('\n').filter(Boolean).length;
        console.log(`[test] the servers' log: ${lines} lines, no credential in any`);
        rmSync(folder, { recursive: true, force: true });
        return;
      }
      console.error(
        `[test] the servers' log holds credentials (${file}):\n` +
          findings.map((finding) => `  line ${finding.line}: ${finding.what}`).join('\n'),
      );
      process.exitCode = 1;
    },
  };
}

/** What one provisioning gives every integration project of the run. */
interface Run {
  backends: TestBackends;
  runLogFile: string;
  teardown(): Promise<void>;
}

/**
 * Each integration project (vitest.config.ts) runs this setup, all of them before any test and their
 * teardowns after the last: the first provisions and seeds, the others share its run through the
 * main process's global object (each setup module is loaded apart), and the last teardown ends it.
 */
const SHARED_RUN = Symbol.for('hiring-leads.test-run');
type SharedRun = { run: Promise<Run>; projects: number };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as { [SHARED_RUN]?: SharedRun };
  holder[SHARED_RUN] ??= { run: startRun(), projects: 0 };
  const shared = holder[SHARED_RUN];
  shared.projects++;
  const run = await shared.run;
  project.provide('testBackends', run.backends);
  project.provide('runLogFile', run.runLogFile);
  return async () => {
    shared.projects--;
    if (shared.projects === 0) await run.teardown();
  };
}

async function startRun(): Promise<Run> {
  // Every server the tests start reads the built views at start; a fresh clone has none yet.
  await buildViews();
  const provisioned = await provision();
  const runId = randomBytes(4).toString('hex');
  const backends: TestBackends = {
    ...provisioned.urls,
    indexPrefix: `test-${runId}`,
    mongoDb: `test_${runId}`,
    serverSecret: randomBytes(48).toString('base64'),
    pendingRefundsDir: mkdtempSync(path.join(tmpdir(), 'hiring-leads-refunds-')),
    compiledSources: path.resolve('.cache', `test-sources-${runId}`),
    seedOutcomeFile: path.join(mkdtempSync(path.join(tmpdir(), 'hiring-leads-seed-')), 'outcome.json'),
  };
  console.log(
    `[test] backends from ${provisioned.source}: ${backends.elasticsearchUrl}, ${backends.mongodbUri}; ` +
      `index prefix ${backends.indexPrefix}, database ${backends.mongoDb}`,
  );
  const runLog = startRunLog(backends);
  let seeding: Promise<void> = Promise.resolve();
  const teardown = async () => {
    try {
      await seeding;
      rmSync(backends.pendingRefundsDir, { recursive: true, force: true });
      rmSync(backends.compiledSources, { recursive: true, force: true });
      rmSync(path.dirname(backends.seedOutcomeFile), { recursive: true, force: true });
      await removeRunData(backends);
    } finally {
      await provisioned.release();
      runLog.check();
    }
  };
  try {
    await compileSources(process.cwd(), backends.compiledSources);
  } catch (error) {
    await teardown();
    throw error;
  }
  // Seeded while vitest starts the workers and they load their modules; every integration file
  // waits for the outcome first (test/support/await-seed.ts). A failed seed fails each of them.
  seeding = seedTestData(backends).then(
    () => writeSeedOutcome(backends.seedOutcomeFile, {}),
    (error: Error) => writeSeedOutcome(backends.seedOutcomeFile, { error: error.message }),
  );
  return { backends, runLogFile: runLog.file, teardown };
}
