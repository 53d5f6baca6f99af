import type { Client } from '@elastic/elasticsearch';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createElasticsearchClient } from './elasticsearch.js';
import { connectMongo, type MongoHandle } from './mongo.js';

/** The clients of Elasticsearch and MongoDB: one each per process, handed to the stores only. */
export interface BackendClients {
  elasticsearch: Client;
  mongo: MongoHandle;
}

/** `logger` hears of a MongoDB client restarted because the driver was stuck (src/stores/mongo.ts). */
export async function connectBackends(
  settings: Parameters<typeof connectMongo>[0] & Parameters<typeof createElasticsearchClient>[0],
  logger?: Logger,
): Promise<BackendClients> {
  return { elasticsearch: createElasticsearchClient(settings), mongo: await connectMongo(settings, logger) };
}

/** The backends as the process sees them whole: whether they answer, and letting them go. */
export class Backends {
  constructor(
    private readonly clients: BackendClients,
    private readonly settings: Pick<Config, 'BACKEND_TIMEOUT_MS'>,
  ) {}

  /** Whether each backend answers within BACKEND_TIMEOUT_MS (the readiness probe). */
  async answering(): Promise<{ elasticsearch: boolean; mongodb: boolean }> {
    const timeoutMs = this.settings.BACKEND_TIMEOUT_MS;
    const { elasticsearch, mongo } = this.clients;
    const [elasticsearchAnswers, mongodbAnswers] = await Promise.all([
      answers(() => elasticsearch.cluster.health({}, { requestTimeout: timeoutMs }), timeoutMs),
      answers(() => mongo.db.command({ ping: 1 }), timeoutMs),
    ]);
    return { elasticsearch: elasticsearchAnswers, mongodb: mongodbAnswers };
  }

  /** Closes both clients; a clean stop calls it last. */
  async close(): Promise<void> {
    await Promise.allSettled([this.clients.mongo.client.close(), this.clients.elasticsearch.close()]);
  }
}

async function answers(probe: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([
      probe().then(
        () => true,
        () => false,
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
