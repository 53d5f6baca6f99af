import type { Config } from './config.js';
import { useStackUrlsUnlessSet } from './stack-urls.js';

useStackUrlsUnlessSet(process.env);

// Loaded only now, so that every module sees the stack's URLs when it first reads the config.
const { ConfigError, parseConfig } = await import('./config.js');
const { logger } = await import('./logger.js');
const { createApp } = await import('./http/app.js');
const { startHttpServer } = await import('./http/http-server.js');
const { createServices, ensureIndexes } = await import('./mcp/services.js');
const { createElasticsearchClient } = await import('./stores/elasticsearch.js');
const { connectMongo } = await import('./stores/mongo.js');
const { tools } = await import('./tools/registry.js');

let settings: Config;
try {
  settings = parseConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  // One plain line, not a stack trace: it names the setting and how to fix it.
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
for (const warning of settings.startupWarnings) logger.warn(warning);
const mongo = await connectMongo(settings);
const services = createServices({
  config: settings,
  elasticsearch: createElasticsearchClient(settings),
  mongo,
});
try {
  await ensureIndexes(services);
} catch (error) {
  // The server can start without MongoDB and serve once it returns; indexes are created by the next start.
  logger.warn('could not create MongoDB indexes at start-up', { error });
}

const server = await startHttpServer(createApp({ services, tools }), settings);
logger.info('listening', {
  host: settings.HOST,
  port: settings.PORT,
  base_url: settings.BASE_URL,
  tools: tools.length,
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info('shutting down', { signal });
  // Requests in flight finish; idle keep-alive connections would otherwise hold the process open.
  server.closeIdleConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.allSettled([mongo.client.close(), services.elasticsearch.close()]);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
