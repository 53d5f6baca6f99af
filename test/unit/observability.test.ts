import { collectDefaultMetrics, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { patternMatching } from '../../src/http/route-label.js';
import { createLogger, type LogLevel } from '../../src/logger.js';
import { reportEventLoopLag } from '../../src/metrics.js';
import { elasticsearchOperation } from '../../src/stores/backend-metrics.js';

/** A logger writing into an array, one parsed JSON object per line. */
function capturedLogger(level: LogLevel = 'debug') {
  const written: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void written.push(line) } });
  const lines = () =>
    written.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line));
  return { logger, written, lines };
}

describe('the logger', () => {
  it('writes one JSON object per line: level by name, ISO time, bound fields, the call’s fields, msg', () => {
    const { logger, written, lines } = capturedLogger();
    logger
      .child({ request_id: 'req-1' })
      .child({ account_id: 'acc-1', tool: 'search_leads' })
      .info('tool call', { outcome: 'ok', duration_ms: 12 });
    expect(written).toHaveLength(1);
    expect(written[0]?.endsWith('}\n')).toBe(true);
    const [line] = lines();
    expect(line).toMatchObject({
      level: 'info',
      request_id: 'req-1',
      account_id: 'acc-1',
      tool: 'search_leads',
      outcome: 'ok',
      duration_ms: 12,
      msg: 'tool call',
    });
    expect(new Date(line.time).toISOString()).toBe(line.time);
    expect(line.pid).toBe(process.pid);
  });

  it('binds a child’s fields to its own lines only, each key written once, the line’s own value last', () => {
    const { logger, written, lines } = capturedLogger();
    const request = logger.child({ request_id: 'req-1', stage: 'auth' });
    const caller = request.child({ account_id: 'acc-1' });
    caller.info('tool call', { stage: 'tool' });
    request.info('request');
    expect(written[0]?.match(/"stage"/g)).toHaveLength(1);
    expect(lines()).toEqual([
      expect.objectContaining({ request_id: 'req-1', account_id: 'acc-1', stage: 'tool', msg: 'tool call' }),
      expect.not.objectContaining({ account_id: expect.anything() }),
    ]);
    expect(lines()[1]).toMatchObject({ request_id: 'req-1', stage: 'auth', msg: 'request' });
  });

  it('writes an error as its name, message and code only', () => {
    const { logger, lines } = capturedLogger();
    const error = Object.assign(new TypeError('the pipe broke'), { code: 'EPIPE', extra: { big: 'object' } });
    logger.error('request failed unexpectedly', { error });
    expect(lines()[0].error).toEqual({ name: 'TypeError', message: 'the pipe broke', code: 'EPIPE' });
  });

  it('drops lines below LOG_LEVEL, and everything when silent', () => {
    const warnings = capturedLogger('warn');
    warnings.logger.debug('not this');
    warnings.logger.info('nor this');
    warnings.logger.warn('this');
    warnings.logger.error('and this', { error: new Error('x') });
    expect(warnings.lines().map((line) => [line.level, line.msg])).toEqual([
      ['warn', 'this'],
      ['error', 'and this'],
    ]);
    const silent = capturedLogger('silent');
    silent.logger.error('nothing');
    expect(silent.written).toEqual([]);
  });

  it('redacts fields named like credentials, in the line, in bound fields and in request parts', () => {
    const { logger, written } = capturedLogger();
    logger.child({ token: 'bound-token-value' }).warn('careless', {
      password: 'a password value',
      api_key: 'hl_live_value',
      refresh_token: 'refresh-value',
      headers: { authorization: 'Bearer header-value', 'set-cookie': 'session=cookie-value' },
      body: { client_secret: 'client-secret-value' },
      key_id: 'key_visible',
    });
    const text = written.join('');
    for (const secret of ['bound-token', 'a password', 'hl_live_value', 'refresh-value', 'header-value']) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain('cookie-value');
    expect(text).not.toContain('client-secret-value');
    expect(text).toContain('"key_id":"key_visible"');
    expect(text).toContain('"password":"[redacted]"');
  });
});

describe('metric labels', () => {
  it('name an Elasticsearch request by its API, never by index or document id', () => {
    expect(elasticsearchOperation('/test-ab12-leads/_search')).toBe('search');
    expect(elasticsearchOperation('/hl-leads/_doc/ld_123')).toBe('doc');
    expect(elasticsearchOperation('/hl-companies/_mget')).toBe('mget');
    expect(elasticsearchOperation('/_cluster/health')).toBe('cluster');
    expect(elasticsearchOperation('/_resolve/index/hl-leads-v*')).toBe('resolve');
    expect(elasticsearchOperation('/hl-leads-v1')).toBe('index');
    expect(elasticsearchOperation('')).toBe('index');
  });

  it('name a request of a route with several paths by the pattern it matched', () => {
    const oauth = ['/authorize{/:uid}', '/token', '/register', '/register/:clientId', '/jwks'];
    expect(patternMatching(oauth, '/token')).toBe('/token');
    expect(patternMatching(oauth, '/TOKEN/')).toBe('/token');
    expect(patternMatching(oauth, '/register')).toBe('/register');
    expect(patternMatching(oauth, '/register/client-123')).toBe('/register/:clientId');
    expect(patternMatching(oauth, '/authorize')).toBe('/authorize{/:uid}');
    expect(patternMatching(oauth, '/authorize/abc')).toBe('/authorize{/:uid}');
    expect(patternMatching(['/a', '/b'], '/c')).toBe('/a|/b');
  });
});

describe('metrics settings', () => {
  const base = { SERVER_SECRET: 'a'.repeat(48) };

  it('has no metrics listener unless METRICS_PORT is set, and binds it to loopback by default', () => {
    expect(parseConfig(base).METRICS_PORT).toBeUndefined();
    expect(parseConfig(base).METRICS_HOST).toBe('127.0.0.1');
    expect(parseConfig({ ...base, METRICS_PORT: '' }).METRICS_PORT).toBeUndefined();
    expect(parseConfig({ ...base, METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toMatchObject({
      METRICS_PORT: 9464,
      METRICS_HOST: '0.0.0.0',
    });
  });

  it('refuses a METRICS_PORT that is not a port, naming it', () => {
    for (const value of ['abc', '70000', '-1', '1.5']) {
      expect(() => parseConfig({ ...base, METRICS_PORT: value })).toThrow(/METRICS_PORT/);
    }
  });
});

describe('event loop lag', () => {
  /** A delay histogram whose samples are `delaysMs`, as Node records them: interval plus lag. */
  function histogramOf(delaysMs: number[]) {
    let samples = delaysMs.map((ms) => ms * 1e6);
    const mean = () => samples.reduce((sum, value) => sum + value, 0) / samples.length;
    return {
      get count() {
        return samples.length;
      },
      get min() {
        return Math.min(...samples);
      },
      get max() {
        return Math.max(...samples);
      },
      get mean() {
        return mean();
      },
      get stddev() {
        return Math.sqrt(samples.reduce((sum, value) => sum + (value - mean()) ** 2, 0) / samples.length);
      },
      percentile: (percent: number) =>
        [...samples].sort((a, b) => a - b)[Math.ceil((percent / 100) * samples.length) - 1] ?? 0,
      reset: () => {
        samples = [];
      },
      enable: () => true,
    };
  }

  const figures = async (registry: Registry) =>
    Object.fromEntries(
      (await registry.getMetricsAsJSON())
        .filter((metric) => metric.name.startsWith('nodejs_eventloop_lag_'))
        .map((metric) => [metric.name, metric.values[0]?.value]),
    );

  it('reports the lag without the sampling interval: an idle loop reads near zero, a stall its length', async () => {
    const registry = new Registry();
    // An idle loop sampled every 100 ms, then one stalled for 250 ms.
    const histogram = histogramOf([100.2, 100.1, 100.3, 100.2, 350.2]);
    reportEventLoopLag(registry, histogram, 100);
    const reported = await figures(registry);
    expect(reported.nodejs_eventloop_lag_min_seconds).toBeCloseTo(0.0001, 6);
    expect(reported.nodejs_eventloop_lag_p50_seconds).toBeCloseTo(0.0002, 6);
    expect(reported.nodejs_eventloop_lag_max_seconds).toBeCloseTo(0.2502, 6);
    expect(reported.nodejs_eventloop_lag_mean_seconds).toBeCloseTo(0.0502, 6);
    // The figures cover the time since the last scrape; a scrape with no sample keeps them.
    expect(histogram.count).toBe(0);
    expect(await figures(registry)).toEqual(reported);
  });

  it('takes the place of prom-client’s figures, which counted the interval as lag', async () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    reportEventLoopLag(registry, histogramOf([10.5]), 10);
    const names = (await registry.getMetricsAsJSON()).map((metric) => metric.name);
    for (const figure of ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99']) {
      expect(names.filter((name) => name === `nodejs_eventloop_lag_${figure}_seconds`)).toHaveLength(1);
    }
    expect((await figures(registry)).nodejs_eventloop_lag_min_seconds).toBeCloseTo(0.0005, 6);
  });
});
