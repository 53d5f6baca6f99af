import type { RequestListener, Server, ServerResponse } from 'node:http';
import type { Metrics } from '../metrics.js';
import { type HttpServerSettings, startHttpServer } from './http-server.js';

/**
 * Serves `GET /metrics` in Prometheus's text format on a listener of its own (METRICS_HOST and
 * METRICS_PORT, loopback by default), never on the public port: the numbers are for the
 * operator's scraper, not for clients (docs/observability.md).
 */
export function startMetricsListener(
  metrics: Metrics,
  settings: HttpServerSettings & { METRICS_HOST: string },
  port: number,
): Promise<Server> {
  metrics.collectProcessMetrics();
  return startHttpServer(metricsPage(metrics), { ...settings, HOST: settings.METRICS_HOST, PORT: port });
}

function metricsPage(metrics: Metrics): RequestListener {
  return (req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== '/metrics') return answerText(res, 404, 'Not found: the metrics are at /metrics.');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return answerText(res, 405, 'Method not allowed: GET /metrics.');
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => answerText(res, 500, `The metrics could not be collected: ${String(error)}`),
    );
  };
}

function answerText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}
