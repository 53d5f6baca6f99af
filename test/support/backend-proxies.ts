import { createServices } from '../../src/services.js';
import { connectBackends } from '../../src/stores/backends.js';
import { testBackends, testConfig } from './backends.js';
import { runLog } from './run-log.js';
import { type MongoProxy, startMongoProxy, startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import type { TestServices } from './test-server.js';

/**
 * TCP proxies in front of this run's Elasticsearch and MongoDB, whichever way the run found them
 * (local build, Docker, URLs from the environment), so a test can cut them while the shared
 * backends keep serving everyone else.
 */
export interface BackendProxies {
  elasticsearch: TcpProxy;
  mongo: MongoProxy;
  /**
   * The settings that send a server through the proxies, for `startTestServer`'s `config`.
   * MONGODB_URI always has a query string, so more options can be appended with `&`.
   */
  config: { ELASTICSEARCH_URL: string; MONGODB_URI: string };
  /** Puts both proxies back to forwarding. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startBackendProxies(): Promise<BackendProxies> {
  const backends = testBackends();
  const elasticsearchUrl = new URL(backends.elasticsearchUrl);
  const mongo = mongoAddress(backends.mongodbUri);
  const elasticsearch = await startTcpProxy(
    elasticsearchUrl.hostname,
    Number(elasticsearchUrl.port || (elasticsearchUrl.protocol === 'https:' ? 443 : 80)),
  );
  const mongoProxy = await startMongoProxy(mongo.host, mongo.port);
  const proxiedElasticsearch = new URL(elasticsearchUrl);
  proxiedElasticsearch.host = `127.0.0.1:${elasticsearch.port}`;
  return {
    elasticsearch,
    mongo: mongoProxy,
    config: {
      ELASTICSEARCH_URL: proxiedElasticsearch.href.replace(/\/$/, ''),
      MONGODB_URI: mongo.through(mongoProxy.port),
    },
    restore: async () => {
      await Promise.all([elasticsearch.restore(), mongoProxy.restore()]);
    },
    close: async () => {
      await Promise.all([elasticsearch.close(), mongoProxy.close()]);
    },
  };
}

/**
 * The first host of a `mongodb://` URI, and the same URI (credentials and options kept) aimed at
 * a proxy instead. The proxy is one host, so the client connects to it directly.
 */
function mongoAddress(uri: string): { host: string; port: number; through(port: number): string } {
  const parts = /^mongodb:\/\/(?:([^@/]*)@)?([^/?]+)\/?([^?]*)(?:\?(.*))?$/.exec(uri);
  if (!parts) {
    throw new Error(
      `The outage tests reach MongoDB through a TCP proxy and need a mongodb://host:port URI, not ${uri.replace(/\/\/[^@/]*@/, '//…@')}`,
    );
  }
  const [, credentials, hosts = '', database = '', query = ''] = parts;
  const [host = '', port = '27017'] = (hosts.split(',')[0] ?? '').split(/:(?=\d+$)/);
  const options = new URLSearchParams(query);
  options.delete('replicaSet');
  options.set('directConnection', 'true');
  return {
    host: host.replace(/^\[|\]$/g, ''),
    port: Number(port),
    through: (proxyPort) =>
      `mongodb://${credentials ? `${credentials}@` : ''}127.0.0.1:${proxyPort}/${database}?${options}`,
  };
}

/**
 * Services over direct connections to this run's backends, past any proxy: where a test sets up
 * accounts and reads what was charged while a server's own connections are cut. `overrides` are
 * settings, e.g. the BACKEND_TIMEOUT_MS of the test's servers: a MongoDB command's own deadline is
 * the longest of the process's clients.
 */
export async function openDirectServices(
  overrides: Record<string, string> = {},
): Promise<{ services: TestServices; close(): Promise<void> }> {
  const config = testConfig(overrides);
  const clients = await connectBackends(config);
  const services: TestServices = { ...createServices({ config, ...clients, logger: runLog() }), ...clients };
  return { services, close: () => services.backends.close() };
}
