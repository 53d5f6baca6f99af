import type { RequestHandler } from 'express';
import type { Services } from '../services.js';

/** The process is up and answering; says nothing about the backends. */
export const healthz: RequestHandler = (_req, res) => {
  res.json({ status: 'ok' });
};

/** Both backends answer within the backend timeout; 503 naming the one that does not. */
export function readyz(services: Services): RequestHandler {
  return async (_req, res) => {
    const { elasticsearch, mongodb } = await services.backends.answering();
    const ready = elasticsearch && mongodb;
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'unavailable',
      elasticsearch: elasticsearch ? 'up' : 'down',
      mongodb: mongodb ? 'up' : 'down',
    });
  };
}
