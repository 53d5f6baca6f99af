import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** How often the process metrics sample the event loop's delay (`collectProcessMetrics`). */
const EVENT_LOOP_SAMPLE_MS = 100;
/** A sampling interval at which prom-client's own event loop histogram never samples (Node's largest). */
const NEVER_MS = 2 ** 31 - 1;

/** Seconds: from an answer out of memory to a call that waited for a slow backend. */
const CALL_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: a backend call takes a millisecond or so, and gives up at BACKEND_TIMEOUT_MS (2 s by default). */
const BACKEND_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The server's Prometheus metrics (docs/observability.md lists them). One `Metrics` per server,
 * with a registry of its own rather than prom-client's global one, so several servers in one
 * process (the tests) count apart. Every label takes its values from a bounded set: route
 * patterns, tool names, error codes, quota names, backend command names; never a raw path, an
 * account or an id.
 */
export class Metrics {
  readonly registry = new Registry();
  private processMetricsCollected = false;

  private readonly httpRequests = new Counter({
    name: 'hiring_leads_http_requests_total',
    help: 'HTTP requests answered, by method, matched route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'hiring_leads_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method and matched route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: CALL_SECONDS,
    registers: [this.registry],
  });
  private readonly toolCalls = new Counter({
    name: 'hiring_leads_tool_calls_total',
    help: 'Tool calls, by tool and outcome (ok, or the error code of the result)',
    labelNames: ['tool', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly toolDuration = new Histogram({
    name: 'hiring_leads_tool_call_duration_seconds',
    help: 'Tool call latency inside the server, rate limit to result, by tool and outcome',
    labelNames: ['tool', 'outcome'] as const,
    buckets: CALL_SECONDS,
    registers: [this.registry],
  });
  private readonly quotaCharges = new Counter({
    name: 'hiring_leads_quota_charged_units_total',
    help: 'Daily quota units charged, by quota',
    labelNames: ['quota'] as const,
    registers: [this.registry],
  });
  private readonly quotaRefunds = new Counter({
    name: 'hiring_leads_quota_refunded_units_total',
    help: 'Daily quota units given back (failed calls, pages that came back short), by quota',
    labelNames: ['quota'] as const,
    registers: [this.registry],
  });
  private readonly creditCharges = new Counter({
    name: 'hiring_leads_credits_charged_total',
    help: 'Enrichment credits taken from accounts',
    registers: [this.registry],
  });
  private readonly creditRefunds = new Counter({
    name: 'hiring_leads_credits_refunded_total',
    help: 'Enrichment credits given back (an enrichment that failed after taking its credit)',
    registers: [this.registry],
  });
  private readonly elasticsearchDuration = new Histogram({
    name: 'hiring_leads_elasticsearch_request_duration_seconds',
    help: 'Elasticsearch request latency, failures included, by API (search, get, mget, count, ...)',
    labelNames: ['operation'] as const,
    buckets: BACKEND_SECONDS,
    registers: [this.registry],
  });
  private readonly elasticsearchErrors = new Counter({
    name: 'hiring_leads_elasticsearch_errors_total',
    help: 'Elasticsearch requests that failed, by API and error (timeout, connection, status_<code>, other)',
    labelNames: ['operation', 'error'] as const,
    registers: [this.registry],
  });
  private readonly mongoDuration = new Histogram({
    name: 'hiring_leads_mongodb_command_duration_seconds',
    help: 'MongoDB command latency, failures included, by command name (find, update, findAndModify, ...)',
    labelNames: ['command'] as const,
    buckets: BACKEND_SECONDS,
    registers: [this.registry],
  });
  private readonly mongoErrors = new Counter({
    name: 'hiring_leads_mongodb_command_errors_total',
    help: 'MongoDB commands that failed, by command name and error (server: the server refused it, e.g. a duplicate key; network: no answer)',
    labelNames: ['command', 'error'] as const,
    registers: [this.registry],
  });
  private readonly authFailures = new Counter({
    name: 'hiring_leads_authentication_failures_total',
    help: 'Refused credentials on /mcp, by reason and the status answered (401, or 429 once the address is over its budget)',
    labelNames: ['reason', 'status'] as const,
    registers: [this.registry],
  });

  httpRequestFinished(method: string, route: string, status: number, milliseconds: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    this.httpDuration.observe({ method, route }, milliseconds / 1000);
  }

  toolCallFinished(tool: string, outcome: string, milliseconds: number): void {
    this.toolCalls.inc({ tool, outcome });
    this.toolDuration.observe({ tool, outcome }, milliseconds / 1000);
  }

  quotaCharged(quota: string, units: number): void {
    if (units > 0) this.quotaCharges.inc({ quota }, units);
  }

  quotaRefunded(quota: string, units: number): void {
    if (units > 0) this.quotaRefunds.inc({ quota }, units);
  }

  creditCharged(): void {
    this.creditCharges.inc();
  }

  creditRefunded(): void {
    this.creditRefunds.inc();
  }

  /** `error` is undefined when Elasticsearch answered as asked. */
  elasticsearchRequestFinished(operation: string, milliseconds: number, error: string | undefined): void {
    this.elasticsearchDuration.observe({ operation }, milliseconds / 1000);
    if (error !== undefined) this.elasticsearchErrors.inc({ operation, error });
  }

  /** `error` is undefined when the command succeeded. */
  mongoCommandFinished(command: string, milliseconds: number, error: 'server' | 'network' | undefined): void {
    this.mongoDuration.observe({ command }, milliseconds / 1000);
    if (error !== undefined) this.mongoErrors.inc({ command, error });
  }

  authenticationFailed(reason: AuthenticationFailure, status: number): void {
    this.authFailures.inc({ reason, status: String(status) });
  }

  /**
   * Adds prom-client's process metrics (CPU, memory, event loop lag, garbage collection, handles)
   * under their usual names. Only a server that serves its metrics collects them: they start an
   * event loop monitor that lives as long as the process. The monitor samples the loop's delay every
   * EVENT_LOOP_SAMPLE_MS rather than prom-client's default 10 ms: a timer firing 100 times a second
   * costs an idle server nearly 1 % of a core, taken from the search engine beside it
   * (docs/performance.md), and ten samples a second still show a loop that stalls. The lag figures
   * come from that monitor, without its sampling interval (`reportEventLoopLag`); prom-client's own
   * histogram, whose figures include it, is given an interval at which it never samples.
   */
  collectProcessMetrics(): void {
    if (this.processMetricsCollected) return;
    this.processMetricsCollected = true;
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: NEVER_MS });
    reportEventLoopLag(
      this.registry,
      monitorEventLoopDelay({ resolution: EVENT_LOOP_SAMPLE_MS }),
      EVENT_LOOP_SAMPLE_MS,
    );
  }
}

/** What `reportEventLoopLag` reads of Node's event loop delay histogram. */
type DelayHistogram = Pick<
  IntervalHistogram,
  'min' | 'max' | 'mean' | 'stddev' | 'count' | 'percentile' | 'reset' | 'enable'
>;

/**
 * Reports `nodejs_eventloop_lag_{min,max,mean,stddev,p50,p90,p99}_seconds` (prom-client's names and
 * meaning) from `histogram`, in place of prom-client's. Node's histogram records the time between
 * two runs of a timer of `intervalMs`: the interval itself plus the lag. prom-client reports those
 * samples as they are, so an idle server read 0.100 s, the interval, and any alert on lag fired
 * all the time; here the interval is taken off each figure, and an idle server reads near zero.
 * Like prom-client's, the figures cover the time since the last scrape (the histogram is reset);
 * a scrape with no sample since the last one keeps the last figures.
 */
export function reportEventLoopLag(registry: Registry, histogram: DelayHistogram, intervalMs: number): void {
  const lagOf = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - intervalMs) / 1000;
  const figures: [string, string, () => number][] = [
    ['min', 'The minimum recorded event loop delay.', () => lagOf(histogram.min)],
    ['max', 'The maximum recorded event loop delay.', () => lagOf(histogram.max)],
    ['mean', 'The mean of the recorded event loop delays.', () => lagOf(histogram.mean)],
    // Taking the interval off every sample leaves their spread as it is.
    ['stddev', 'The standard deviation of the recorded event loop delays.', () => histogram.stddev / 1e9],
    ['p50', 'The 50th percentile of the recorded event loop delays.', () => lagOf(histogram.percentile(50))],
    ['p90', 'The 90th percentile of the recorded event loop delays.', () => lagOf(histogram.percentile(90))],
    ['p99', 'The 99th percentile of the recorded event loop delays.', () => lagOf(histogram.percentile(99))],
  ];
  const gauges: { gauge: Gauge; read: () => number }[] = [];
  // A registry collects its metrics in the order they were registered: the first reads the
  // histogram for all seven, once per scrape.
  const collectAll = () => {
    if (histogram.count === 0) return;
    for (const { gauge, read } of gauges) gauge.set(read());
    histogram.reset();
  };
  for (const [index, [figure, help, read]] of figures.entries()) {
    const name = `nodejs_eventloop_lag_${figure}_seconds`;
    registry.removeSingleMetric(name);
    const gauge = new Gauge({
      name,
      help,
      registers: [registry],
      ...(index === 0 && { collect: collectAll }),
    });
    gauges.push({ gauge, read });
  }
  histogram.enable();
}

/** Why a bearer credential was refused: a label of `hiring_leads_authentication_failures_total`. */
export type AuthenticationFailure =
  | 'missing_credential'
  | 'malformed_header'
  | 'unrecognized_token'
  | 'api_key_refused'
  | 'access_token_refused'
  | 'account_missing';
