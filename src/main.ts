import type { AddressInfo } from 'node:net';
import { type Config, ConfigError, parseConfig } from './config.js';
import { logger } from './logger.js';

// Settings come from the environment only (README, "Configuration"); on a development machine,
// `npm run start:stack` passes in the URLs of the stack `npm run stack:up` started.
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

// The server's modules load only once the settings are good: a refused setting is answered in a
// fraction of a second instead of after seconds of loading (the world's places, the SDK,
// oidc-provider), and oidc-provider's notice about the Node version printed on import never joins
// the one-line explanation above.
const [
  { createApp },
  { startHttpServer },
  { startMetricsListener },
  { createServices, ensureIndexes },
  { connectBackends },
  { tools },
  { createOAuthProvider },
] = await Promise.all([
  import('./http/app.js'),
  import('./http/http-server.js'),
  import('./http/metrics-listener.js'),
  import('./services.js'),
  import('./stores/backends.js'),
  import('./tools/registry.js'),
  import('./oauth/provider.js'),
]);
const services = createServices({ config: settings, ...(await connectBackends(settings, logger)), logger });
try {
  await ensureIndexes(services);
} catch (error) {
  // The server can start without MongoDB and serve once it returns; indexes are created by the next start.
  logger.warn('could not create MongoDB indexes at start-up', { error });
}
// Refunds owed by a process that died on this host are finished in the background.
services.quotaCounters.refundLeftovers(logger);

const oauth = await createOAuthProvider({ services, config: settings, logger });
// The metrics listener first: once `listening` is logged, everything is up.
const metricsListener =
  settings.METRICS_PORT === undefined
    ? undefined
    : await startMetricsListener(services.metrics, settings, settings.METRICS_PORT);
if (metricsListener !== undefined) {
  const address = metricsListener.address() as AddressInfo;
  logger.info('metrics listening', { host: address.address, port: address.port, path: '/metrics' });
}
const server = await startHttpServer(createApp({ services, tools, oauth }), settings);
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
  const listeners = metricsListener === undefined ? [server] : [server, metricsListener];
  for (const listener of listeners) listener.closeIdleConnections();
  await Promise.all(
    listeners.map((listener) => new Promise<void>((resolve) => listener.close(() => resolve()))),
  );
  // Units counted on quotas without a limit are written before MongoDB is let go.
  await services.quotaCounters.writeCounts();
  await services.backends.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
