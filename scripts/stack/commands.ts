import { composeDown, composeStatus, composeUp, dockerEngineAnswers } from './docker.js';
import {
  elasticsearchPaths,
  installElasticsearch,
  runningElasticsearchPid,
  startElasticsearch,
  stopElasticsearch,
} from './elasticsearch-local.js';
import { StackError } from './errors.js';
import { elasticsearchHealthy, elasticsearchStatus, mongoAnswers, waitUntil } from './health.js';
import { findJdk } from './jdk.js';
import { installMongo, mongoPaths, runningMongoPid, startMongo, stopMongo } from './mongo-local.js';
import { secureStackDir, serviceGroupId } from './private-files.js';
import { isRunning, portAnswers, processesMatching, stopProcess } from './processes.js';
import { elasticsearchUrlFor, mongodbUriFor, type StackSettings, stackSettings } from './settings.js';
import {
  readStackState,
  removeStackState,
  type StackMode,
  type StackState,
  type StackUrls,
  writeStackState,
} from './state.js';
import { stackVersions } from './versions.js';

type Env = Record<string, string | undefined>;

/** Both URLs given by the user mean "use these servers"; one alone is a mistake worth naming. */
function externalUrls(env: Env): StackUrls | undefined {
  const { ELASTICSEARCH_URL: elasticsearchUrl, MONGODB_URI: mongodbUri } = env;
  if (elasticsearchUrl && mongodbUri) return { elasticsearchUrl, mongodbUri };
  if (elasticsearchUrl || mongodbUri) {
    throw new StackError(
      `Only ${elasticsearchUrl ? 'ELASTICSEARCH_URL' : 'MONGODB_URI'} is set: set both to use your own servers, or neither.`,
    );
  }
  return undefined;
}

function localUrls(settings: StackSettings): StackUrls {
  return { elasticsearchUrl: elasticsearchUrlFor(settings), mongodbUri: mongodbUriFor(settings) };
}

async function bothAnswer(urls: StackUrls): Promise<boolean> {
  const [elasticsearch, mongo] = await Promise.all([
    elasticsearchHealthy(urls.elasticsearchUrl),
    mongoAnswers(urls.mongodbUri),
  ]);
  return elasticsearch && mongo;
}

function announce(state: StackState): StackState {
  console.log(`[stack] ready (${state.mode})`);
  console.log(`  ELASTICSEARCH_URL=${state.elasticsearchUrl}`);
  console.log(`  MONGODB_URI=${state.mongodbUri}`);
  return state;
}

function record(
  settings: StackSettings,
  mode: StackMode,
  urls: StackUrls,
  pids?: StackState['pids'],
): StackState {
  const state: StackState = { mode, ...urls, startedAt: new Date().toISOString(), ...(pids && { pids }) };
  writeStackState(settings.stackDir, state);
  return announce(state);
}

/**
 * Starts the stack, or finds the one already running, and waits until both servers answer.
 * Order: the user's own servers, then Docker Compose, then the local build.
 */
export async function stackUp(env: Env = process.env): Promise<StackState> {
  const settings = stackSettings(env);
  const external = externalUrls(env);
  secureStackDir(settings.stackDir, await serviceGroupId());
  if (external) {
    console.log('[stack] ELASTICSEARCH_URL and MONGODB_URI are set: using those servers, starting nothing.');
    await waitUntil(() => bothAnswer(external), {
      what: 'The servers named by ELASTICSEARCH_URL and MONGODB_URI',
      timeoutMs: 60_000,
    });
    return record(settings, 'external', external);
  }
  const previous = readStackState(settings.stackDir);
  if (previous?.mode === 'local' && (await localStackRunning(settings))) {
    console.log('[stack] the local stack is already running.');
    return announce(previous);
  }
  if (await useDocker(settings)) {
    await composeUp(settings);
    return record(settings, 'docker', localUrls(settings));
  }
  return localUp(settings, env, previous);
}

export async function useDocker(settings: StackSettings): Promise<boolean> {
  if (settings.forcedMode === 'local') return false;
  const answers = await dockerEngineAnswers();
  if (settings.forcedMode === 'docker' && !answers) {
    throw new StackError('STACK_MODE=docker, but no Docker engine answers (`docker info` fails).');
  }
  return answers;
}

async function localStackRunning(settings: StackSettings): Promise<boolean> {
  const elasticsearch = elasticsearchPaths(settings, stackVersions.elasticsearch);
  const mongo = mongoPaths(settings, stackVersions.mongoJavaServer);
  return (
    runningElasticsearchPid(elasticsearch) !== undefined &&
    runningMongoPid(mongo) !== undefined &&
    (await bothAnswer(localUrls(settings)))
  );
}

async function requireFreePort(port: number, knob: string): Promise<void> {
  if (await portAnswers(port)) {
    throw new StackError(
      `Port ${port} is already taken by another program. Stop it, or choose another port with ${knob}=<port>.`,
    );
  }
}

async function localUp(
  settings: StackSettings,
  env: Env,
  previous: StackState | undefined,
): Promise<StackState> {
  const elasticsearch = elasticsearchPaths(settings, stackVersions.elasticsearch);
  const mongo = mongoPaths(settings, stackVersions.mongoJavaServer);
  const urls = localUrls(settings);
  const runningElsewhere =
    previous?.mode === 'local' &&
    (previous.elasticsearchUrl !== urls.elasticsearchUrl || previous.mongodbUri !== urls.mongodbUri) &&
    (runningElasticsearchPid(elasticsearch) !== undefined || runningMongoPid(mongo) !== undefined);
  if (runningElsewhere) {
    throw new StackError(
      `The local stack already runs at ${previous.elasticsearchUrl} and ${previous.mongodbUri}. ` +
        'Run `npm run stack:down` before changing ES_PORT or MONGO_PORT.',
    );
  }
  const jdk = findJdk(env);
  const startedNow: number[] = [];
  try {
    let mongoPid = runningMongoPid(mongo);
    if (mongoPid === undefined) {
      await requireFreePort(settings.mongoPort, 'MONGO_PORT');
      const classpath = await installMongo(mongo, stackVersions.mongoJavaServer);
      mongoPid = startMongo(mongo, settings, jdk, classpath);
      startedNow.push(mongoPid);
    }
    let elasticsearchPid = runningElasticsearchPid(elasticsearch);
    if (elasticsearchPid === undefined) {
      await requireFreePort(settings.esPort, 'ES_PORT');
      await requireFreePort(settings.esTransportPort, 'ES_TRANSPORT_PORT');
      await installElasticsearch(elasticsearch, stackVersions.elasticsearch);
      elasticsearchPid = await startElasticsearch(elasticsearch, settings, jdk);
      startedNow.push(elasticsearchPid);
    }
    const mongoProcess = mongoPid;
    const elasticsearchProcess = elasticsearchPid;
    await waitUntil(() => mongoAnswers(urls.mongodbUri), {
      what: `The MongoDB-wire server on port ${settings.mongoPort}`,
      timeoutMs: 60_000,
      stillStarting: () => isRunning(mongoProcess),
      hint: `See ${mongo.logFile}.`,
    });
    await waitUntil(() => elasticsearchHealthy(urls.elasticsearchUrl), {
      what: `Elasticsearch on port ${settings.esPort}`,
      timeoutMs: 180_000,
      stillStarting: () => isRunning(elasticsearchProcess),
      hint: `See ${elasticsearch.logs}.`,
    });
    return record(settings, 'local', urls, { elasticsearch: elasticsearchPid, mongo: mongoPid });
  } catch (error) {
    // Leave nothing half-started behind a failed `up`.
    for (const pid of startedNow) await stopProcess(pid).catch(() => undefined);
    throw error;
  }
}

/** Stops whatever `stack:up` started and checks that no process of the local build is left. */
export async function stackDown(env: Env = process.env): Promise<void> {
  const settings = stackSettings(env);
  const state = readStackState(settings.stackDir);
  if (state?.mode === 'docker') await composeDown(settings);
  const elasticsearch = elasticsearchPaths(settings, stackVersions.elasticsearch);
  const mongo = mongoPaths(settings, stackVersions.mongoJavaServer);
  console.log('[stack] stopping the local Elasticsearch and MongoDB-wire server (if running)...');
  await Promise.all([stopElasticsearch(elasticsearch), stopMongo(mongo)]);
  const left = [
    ...(await processesMatching(elasticsearch.home)),
    ...(await processesMatching(mongo.dataFile)),
  ];
  if (left.length > 0) throw new StackError(`Processes still running after stop: ${left.join(', ')}`);
  removeStackState(settings.stackDir);
  console.log('[stack] stopped.');
}

export interface StackStatus {
  mode: StackMode | 'none';
  urls: StackUrls;
  elasticsearch: string;
  mongo: string;
  healthy: boolean;
}

/** Prints and returns the mode, URLs and health of the stack, with pids for the local build. */
export async function stackStatus(env: Env = process.env): Promise<StackStatus> {
  const settings = stackSettings(env);
  const state = readStackState(settings.stackDir);
  const external = externalUrls(env);
  const mode: StackStatus['mode'] = external ? 'external' : (state?.mode ?? 'none');
  const urls =
    external ??
    (state
      ? { elasticsearchUrl: state.elasticsearchUrl, mongodbUri: state.mongodbUri }
      : localUrls(settings));
  const [clusterStatus, mongoUp] = await Promise.all([
    elasticsearchStatus(urls.elasticsearchUrl),
    mongoAnswers(urls.mongodbUri),
  ]);
  const elasticsearchPid = runningElasticsearchPid(elasticsearchPaths(settings, stackVersions.elasticsearch));
  const mongoPid = runningMongoPid(mongoPaths(settings, stackVersions.mongoJavaServer));
  const status: StackStatus = {
    mode,
    urls,
    elasticsearch: `${clusterStatus ?? 'not answering'}${elasticsearchPid ? ` (pid ${elasticsearchPid})` : ''}`,
    mongo: `${mongoUp ? 'answers ping' : 'not answering'}${mongoPid ? ` (pid ${mongoPid})` : ''}`,
    healthy: (clusterStatus === 'green' || clusterStatus === 'yellow') && mongoUp,
  };
  console.log(`mode:           ${mode}${state ? `, since ${state.startedAt}` : ''}`);
  console.log(`Elasticsearch:  ${urls.elasticsearchUrl}  ${status.elasticsearch}`);
  console.log(`MongoDB:        ${urls.mongodbUri}  ${status.mongo}`);
  if (mode === 'docker') console.log(await composeStatus(settings));
  return status;
}
