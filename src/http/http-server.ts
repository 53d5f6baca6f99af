import { createServer, type RequestListener, type Server } from 'node:http';
import type { Config } from '../config.js';

export type HttpServerSettings = Pick<
  Config,
  | 'PORT'
  | 'HOST'
  | 'HTTP_HEADERS_TIMEOUT_MS'
  | 'HTTP_REQUEST_TIMEOUT_MS'
  | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'
  | 'HTTP_MAX_CONNECTIONS'
>;

/**
 * Serves `app` (the express app, or the metrics handler) on `PORT`/`HOST` with deliberate limits
 * rather than Node's defaults (a minute for headers, five for a whole request, no cap on
 * connections): a client sending its request slowly is cut off with 408 and frees its connection
 * for others.
 */
export async function startHttpServer(app: RequestListener, settings: HttpServerSettings): Promise<Server> {
  const server = createServer(
    {
      headersTimeout: settings.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: settings.HTTP_REQUEST_TIMEOUT_MS,
      // Node looks for requests over those limits only this often; a quarter keeps them close to exact.
      connectionsCheckingInterval: Math.ceil(settings.HTTP_HEADERS_TIMEOUT_MS / 4),
    },
    app,
  );
  server.keepAliveTimeout = settings.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  server.maxConnections = settings.HTTP_MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.PORT, settings.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
