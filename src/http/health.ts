import type { RequestHandler } from 'express';
import type { Services } from '../services.js';

/** The process is up and answering; says nothing about the backends. */
export const healthz: RequestHandler = (_req, res) => {
  res.json({ status: 'ok' });
};

/** Both backends answer within the backend timeout; 503 naming the one that does not. */
export function readyz(services: Services): RequestHandler {
  const timeoutMs = services.config.BACKEND_TIMEOUT_MS;
  return async (_req, res) => {
    const [elasticsearch, mongodb] = await Promise.all([
      answers(() => services.elasticsearch.cluster.health({}, { requestTimeout: timeoutMs }), timeoutMs),
      answers(() => services.mongo.db.command({ ping: 1 }), timeoutMs),
    ]);
    const ready = elasticsearch && mongodb;
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'unavailable',
      elasticsearch: elasticsearch ? 'up' : 'down',
      mongodb: mongodb ? 'up' : 'down',
    });
  };
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
