import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { StackError } from './errors.js';
import type { Jdk } from './jdk.js';
import { dependencyGoal } from './maven.js';
import { SERVICE_USER, secureStackDir, serviceGroupId } from './private-files.js';
import {
  commandOnPath,
  isRunning,
  processesMatching,
  readPidFile,
  run,
  runOrFail,
  stopProcess,
} from './processes.js';
import { jitOptions, type StackSettings } from './settings.js';

export interface ElasticsearchPaths {
  root: string;
  home: string;
  data: string;
  logs: string;
  pidFile: string;
}

export function elasticsearchPaths(settings: StackSettings, version: string): ElasticsearchPaths {
  const root = path.join(settings.stackDir, 'elasticsearch');
  return {
    root,
    home: path.join(root, `elasticsearch-${version}`),
    data: path.join(root, 'data'),
    logs: path.join(root, 'logs'),
    pidFile: path.join(root, 'elasticsearch.pid'),
  };
}

/** Fetches the integ-test build (Maven caches it) and unpacks it once per version. */
export async function installElasticsearch(paths: ElasticsearchPaths, version: string): Promise<void> {
  if (existsSync(path.join(paths.home, 'bin/elasticsearch'))) return;
  if (!commandOnPath('unzip')) {
    throw new StackError(
      '`unzip` is needed to unpack Elasticsearch. Install it (e.g. `apt-get install unzip`).',
    );
  }
  const downloads = path.join(paths.root, 'download');
  const unpacking = path.join(paths.root, 'unpacking');
  rmSync(unpacking, { recursive: true, force: true });
  mkdirSync(downloads, { recursive: true });
  console.log(
    `[stack] fetching Elasticsearch ${version} (integ-test build, ~125 MB the first time) with Maven...`,
  );
  await dependencyGoal('copy', [
    `-Dartifact=org.elasticsearch.distribution.integ-test-zip:elasticsearch:${version}:zip`,
    `-DoutputDirectory=${downloads}`,
  ]);
  console.log('[stack] unpacking Elasticsearch...');
  await runOrFail('unzip', ['-q', path.join(downloads, `elasticsearch-${version}.zip`), '-d', unpacking]);
  // Unpack beside the final place and rename, so an interrupted unpack never looks installed.
  renameSync(path.join(unpacking, `elasticsearch-${version}`), paths.home);
  rmSync(unpacking, { recursive: true, force: true });
  rmSync(downloads, { recursive: true, force: true });
}

function configFile(paths: ElasticsearchPaths, settings: StackSettings): string {
  return [
    '# Written by scripts/stack on every start; edit scripts/stack/elasticsearch-local.ts instead.',
    'cluster.name: hiring-leads-local',
    'node.name: local',
    `path.data: ${paths.data}`,
    `path.logs: ${paths.logs}`,
    'discovery.type: single-node',
    'network.host: 127.0.0.1',
    `http.port: ${settings.esPort}`,
    `transport.port: ${settings.esTransportPort}`,
    'xpack.security.enabled: false',
    // A dev machine's disk is often fuller than the default watermarks allow; never go read-only for that.
    'cluster.routing.allocation.disk.threshold_enabled: false',
    '',
  ].join('\n');
}

/**
 * Running as root: the service user, created if needed, owns everything Elasticsearch writes, and
 * the stack folder's group lets it through to there (see `secureStackDir`).
 */
async function prepareServiceUser(paths: ElasticsearchPaths, settings: StackSettings): Promise<void> {
  if ((await run('id', ['-u', SERVICE_USER])).code !== 0) {
    console.log(
      `[stack] creating system user ${SERVICE_USER} to run Elasticsearch (it refuses to run as root)`,
    );
    await runOrFail('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      SERVICE_USER,
    ]);
  }
  await runOrFail('chown', ['-R', `${SERVICE_USER}:`, paths.root]);
  secureStackDir(settings.stackDir, await serviceGroupId());
  const reachable = await run('runuser', [
    '-u',
    SERVICE_USER,
    '--',
    'test',
    '-x',
    path.join(paths.home, 'bin'),
  ]);
  if (reachable.code !== 0) {
    throw new StackError(
      `User ${SERVICE_USER} cannot reach ${paths.home}: every folder above the stack folder needs o+x. ` +
        'Set STACK_DIR to a folder outside /root (e.g. /var/tmp/hiring-leads-stack), or chmod o+x the parents.',
    );
  }
}

/** The server JVM's pid while it runs. */
export function runningElasticsearchPid(paths: ElasticsearchPaths): number | undefined {
  const pid = readPidFile(paths.pidFile);
  return pid !== undefined && isRunning(pid) ? pid : undefined;
}

/** Starts the node in the background and returns the server JVM's pid; answers to HTTP come later. */
export async function startElasticsearch(
  paths: ElasticsearchPaths,
  settings: StackSettings,
  jdk: Jdk,
): Promise<number> {
  mkdirSync(paths.data, { recursive: true });
  mkdirSync(paths.logs, { recursive: true });
  rmSync(paths.pidFile, { force: true });
  writeFileSync(path.join(paths.home, 'config/elasticsearch.yml'), configFile(paths, settings));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await prepareServiceUser(paths, settings);

  const launch = [path.join(paths.home, 'bin/elasticsearch'), '-d', '-p', paths.pidFile];
  const env = {
    ...process.env,
    ES_JAVA_HOME: jdk.home,
    ES_JAVA_OPTS: [`-Xms${settings.esHeap}`, `-Xmx${settings.esHeap}`, ...jitOptions(settings)].join(' '),
  };
  console.log(
    `[stack] starting Elasticsearch on port ${settings.esPort} (Java ${jdk.major}, heap ${settings.esHeap}, ${settings.jit} JIT)...`,
  );
  // `-d` returns once the node has started (or failed to), leaving the server JVM behind.
  const [command, ...args] = asRoot ? ['runuser', '-u', SERVICE_USER, '--', ...launch] : launch;
  const started = await run(command as string, args, { env, timeoutMs: 300_000 });
  const pid = readPidFile(paths.pidFile);
  if (started.code !== 0 || pid === undefined) {
    const output = `${started.stdout}\n${started.stderr}`.trim().split('\n').slice(-15).join('\n');
    throw new StackError(
      `Elasticsearch did not start (exit ${started.code}). See ${path.join(paths.logs, 'hiring-leads-local.log')}.\n${output}`,
    );
  }
  return pid;
}

/**
 * Stops the node, and any other process of this installation (the launcher that `-d` leaves as the
 * server's parent, or a node whose pid file was lost), so nothing is left behind.
 */
export async function stopElasticsearch(paths: ElasticsearchPaths): Promise<void> {
  const pid = readPidFile(paths.pidFile);
  if (pid !== undefined) await stopProcess(pid);
  for (const leftover of await processesMatching(paths.home)) await stopProcess(leftover);
  rmSync(paths.pidFile, { force: true });
}
