import path from 'node:path';
import { StackError } from './errors.js';
import { commandOnPath, run, runOrFail } from './processes.js';
import { jitOptions, projectRoot, type StackSettings } from './settings.js';

/** Whether a Docker engine answers (the CLI alone is not enough). */
export async function dockerEngineAnswers(): Promise<boolean> {
  if (!commandOnPath('docker')) return false;
  const info = await run('docker', ['info', '--format', '{{.ServerVersion}}'], { timeoutMs: 8_000 }).catch(
    () => undefined,
  );
  return info?.code === 0;
}

/** The compose file pins the images itself; the ports and heap are the stack's settings. */
function composeEnv(settings: StackSettings): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ES_PORT: String(settings.esPort),
    MONGO_PORT: String(settings.mongoPort),
    ES_HEAP: settings.esHeap,
    ES_JIT_OPTIONS: jitOptions(settings).join(' '),
  };
}

function compose(settings: StackSettings, args: string[], inherit = true) {
  return runOrFail('docker', ['compose', '-f', path.join(projectRoot, 'docker-compose.yml'), ...args], {
    env: composeEnv(settings),
    inherit,
  });
}

export async function composeUp(settings: StackSettings): Promise<void> {
  if ((await run('docker', ['compose', 'version'])).code !== 0) {
    throw new StackError(
      'A Docker engine answers but `docker compose` is missing: install the Compose plugin, ' +
        'or set ELASTICSEARCH_URL and MONGODB_URI to servers of your own.',
    );
  }
  console.log('[stack] starting Elasticsearch and MongoDB with Docker Compose...');
  // --wait returns once both health checks pass; only the backends, not the app service.
  await compose(settings, ['up', '-d', '--wait', 'elasticsearch', 'mongo']);
}

/** Stops and removes the containers; the named volumes (the data) stay. */
export async function composeDown(settings: StackSettings): Promise<void> {
  await compose(settings, ['down']);
}

export async function composeStatus(settings: StackSettings): Promise<string> {
  return (await compose(settings, ['ps', '--format', 'table {{.Service}}\t{{.State}}\t{{.Status}}'], false))
    .stdout;
}
