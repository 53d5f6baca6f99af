import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { finalStage, healthcheckCommand, readDockerfile } from '../../scripts/dockerfile.js';
import { projectRoot } from '../../scripts/stack/settings.js';
import { stackVersions } from '../../scripts/stack/versions.js';

interface Service {
  image?: string;
  build?: string;
  profiles?: string[];
  environment?: Record<string, string | null>;
  command?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  volumes?: string[];
}

const composeText = readFileSync(path.join(projectRoot, 'docker-compose.yml'), 'utf8');
// Compose reads YAML merge keys (`<<: *anchor`), which YAML 1.2 leaves to the reader to allow.
const services = (parse(composeText, { merge: true }) as { services: Record<string, Service> }).services;

function service(name: string): Service {
  const found = services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

function servicesWhere(test: (service: Service) => boolean): [string, Service][] {
  return Object.entries(services).filter(([, candidate]) => test(candidate));
}

const ELASTICSEARCH_IMAGE = 'docker.elastic.co/elasticsearch/elasticsearch:';
const inProfile = (profile: string) => (candidate: Service) => candidate.profiles?.includes(profile) ?? false;
const isElasticsearch = (candidate: Service) => candidate.image?.startsWith(ELASTICSEARCH_IMAGE) ?? false;
const isMongo = (candidate: Service) => candidate.image?.startsWith('mongo:') ?? false;
const isServer = (candidate: Service) => candidate.build !== undefined;

describe('docker-compose.yml', () => {
  it('runs the Elasticsearch and MongoDB versions of stack/versions.json', () => {
    const elasticsearch = servicesWhere(isElasticsearch);
    const mongo = servicesWhere(isMongo);
    expect(elasticsearch.length).toBeGreaterThan(0);
    expect(mongo.length).toBeGreaterThan(0);
    for (const [, { image }] of elasticsearch)
      expect(image).toBe(`${ELASTICSEARCH_IMAGE}${stackVersions.elasticsearch}`);
    for (const [, { image }] of mongo) expect(image).toBe(stackVersions.mongoImage);
  });

  it('pins every image it pulls to a version', () => {
    for (const [name, { image, build }] of Object.entries(services)) {
      if (build !== undefined) continue;
      expect(image, name).toMatch(/^[a-z0-9./-]+:\d+\.\d+(\.\d+)?(-[a-z0-9.-]+)?$/);
    }
  });

  it('needs no exported variable: every one it reads has a default', () => {
    // `${NAME:-default}`; `${NAME}` or `${NAME:?message}` would need it set, even for a service
    // left out by its profile (Compose reads every service first).
    const uncommented = composeText.replace(/^\s*#.*$/gm, '');
    const references = [...uncommented.matchAll(/\$\{\w+.{0,2}/g)].map(([reference]) => reference);
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) expect(reference).toMatch(/^\$\{\w+:-$/);
  });

  it('starts Elasticsearch and MongoDB by default, and the server in the app profile, all with health checks', () => {
    expect(servicesWhere((candidate) => candidate.profiles === undefined).map(([name]) => name)).toEqual([
      'elasticsearch',
      'mongo',
    ]);
    expect(service('app').profiles).toEqual(['app']);
    expect(service('app').depends_on).toEqual({
      elasticsearch: { condition: 'service_healthy' },
      mongo: { condition: 'service_healthy' },
    });
    expect(service('elasticsearch').healthcheck?.test.join(' ')).toContain('_cluster/health');
    expect(service('mongo').healthcheck?.test.join(' ')).toContain('ping');
    // The server's health check is the image's own.
    expect(service('app').build).toBe('.');
    expect(healthcheckCommand(finalStage(readDockerfile())).join(' ')).toContain('/readyz');
  });

  it('hands every server SERVER_SECRET from the environment, with no value of its own', () => {
    const servers = servicesWhere(isServer);
    expect(servers.map(([name]) => name)).toEqual(['app', 'cluster-app-1', 'cluster-app-2']);
    for (const [name, { environment }] of servers) {
      expect(environment, name).toHaveProperty('SERVER_SECRET', null);
    }
  });
});

describe('the cluster profile of docker-compose.yml', () => {
  const cluster = servicesWhere(inProfile('cluster'));
  const elasticsearchNodes = cluster.filter(([, candidate]) => isElasticsearch(candidate));
  const nodeNames = elasticsearchNodes.map(([name]) => name);
  const mongoMembers = cluster.filter(
    ([, candidate]) => isMongo(candidate) && candidate.command?.[0] === 'mongod',
  );
  const memberNames = mongoMembers.map(([name]) => name);
  const servers = cluster.filter(([, candidate]) => isServer(candidate));

  it('has three Elasticsearch nodes that find each other and elect a master among themselves', () => {
    expect(nodeNames).toHaveLength(3);
    const clusterNames = new Set<string | null | undefined>();
    for (const [name, { environment = {}, healthcheck }] of elasticsearchNodes) {
      expect(environment['node.name'], name).toBe(name);
      expect(environment['discovery.type'], name).toBeUndefined();
      expect(listed(environment['discovery.seed_hosts'])).toEqual(nodeNames);
      expect(listed(environment['cluster.initial_master_nodes'])).toEqual(nodeNames);
      expect(healthcheck, name).toBeDefined();
      clusterNames.add(environment['cluster.name']);
    }
    expect(clusterNames.size).toBe(1);
  });

  it('has a three-member MongoDB replica set, made once by an init job', () => {
    expect(memberNames).toHaveLength(3);
    for (const [name, { command = [], healthcheck }] of mongoMembers) {
      expect(command[command.indexOf('--replSet') + 1], name).toBe('rs0');
      expect(healthcheck, name).toBeDefined();
    }
    const init = cluster.filter(([, candidate]) => candidate.command?.[0] === 'mongosh');
    expect(init).toHaveLength(1);
    const [, job] = init[0] as [string, Service];
    const script = job.command?.join(' ') ?? '';
    expect(script).toContain("_id: 'rs0'");
    for (const member of memberNames) {
      expect(script).toContain(`host: '${member}:27017'`);
      expect(job.depends_on?.[member]).toEqual({ condition: 'service_healthy' });
    }
  });

  it('has two server processes on the replica set with majority writes, once it is made', () => {
    expect(servers).toHaveLength(2);
    const [initName] = cluster.find(([, candidate]) => candidate.command?.[0] === 'mongosh') ?? [];
    for (const [name, { environment = {}, depends_on: dependsOn = {} }] of servers) {
      // A seed list (`host:port,host:port`) is no WHATWG URL host.
      const [, hosts = '', query = ''] =
        /^mongodb:\/\/([^/]+)\/\?(.*)$/.exec(environment.MONGODB_URI ?? '') ?? [];
      const options = new URLSearchParams(query);
      expect(hosts.split(',').map((host) => host.replace(/:27017$/, ''))).toEqual(memberNames);
      expect(options.get('replicaSet'), name).toBe('rs0');
      expect(options.get('w'), name).toBe('majority');
      expect(dependsOn[initName as string], name).toEqual({ condition: 'service_completed_successfully' });
    }
  });

  it('puts both servers behind a proxy whose configuration is in the repository, and the nodes behind it too', () => {
    const proxies = cluster.filter(([, candidate]) => candidate.image?.startsWith('haproxy:'));
    expect(proxies).toHaveLength(1);
    const [proxyName, proxy] = proxies[0] as [string, Service];
    const mount = proxy.volumes?.find((volume) => volume.endsWith('/haproxy.cfg:ro'));
    const configFile = path.join(projectRoot, (mount ?? '').split(':')[0] as string);
    expect(existsSync(configFile), configFile).toBe(true);
    const haproxy = readHaproxy(readFileSync(configFile, 'utf8'));

    const publishedPorts = (proxy.ports ?? []).map((port) => port.split(':').at(-1));
    const mcp = haproxy.frontends.find((frontend) => frontend.port === publishedPorts[0]);
    expect(haproxy.backends.get(mcp?.backend ?? '')).toEqual(servers.map(([name]) => `${name}:3000`));

    for (const [, { environment = {} }] of servers) {
      const elasticsearch = new URL(environment.ELASTICSEARCH_URL ?? '');
      expect(elasticsearch.hostname).toBe(proxyName);
      const frontend = haproxy.frontends.find(({ port }) => port === elasticsearch.port);
      expect(haproxy.backends.get(frontend?.backend ?? '')).toEqual(nodeNames.map((name) => `${name}:9200`));
    }
  });
});

function listed(value: string | null | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim());
}

/** The frontends (their port and default backend) and backends (their servers) of an HAProxy configuration. */
function readHaproxy(text: string): {
  frontends: { port: string; backend: string }[];
  backends: Map<string, string[]>;
} {
  const frontends: { port: string; backend: string }[] = [];
  const backends = new Map<string, string[]>();
  let section: { kind: string; name: string; port?: string; backend?: string } | undefined;
  const closeSection = () => {
    if (section?.kind === 'frontend')
      frontends.push({ port: section.port ?? '', backend: section.backend ?? '' });
  };
  for (const line of text.split('\n')) {
    if (/^\s*(#|$)/.test(line)) continue;
    const [first = '', second = ''] = line.trim().split(/\s+/);
    if (!/^\s/.test(line)) {
      closeSection();
      section = { kind: first, name: second };
      if (first === 'backend') backends.set(second, []);
    } else if (section?.kind === 'frontend' && first === 'bind') {
      section.port = second.split(':').at(-1) ?? '';
    } else if (section?.kind === 'frontend' && first === 'default_backend') {
      section.backend = second;
    } else if (section?.kind === 'backend' && first === 'server') {
      backends.get(section.name)?.push(line.trim().split(/\s+/)[2] ?? '');
    }
  }
  closeSection();
  return { frontends, backends };
}
