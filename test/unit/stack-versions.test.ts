import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/stack/settings.js';
import { stackVersions } from '../../scripts/stack/versions.js';

function projectFile(name: string): string {
  return readFileSync(path.join(projectRoot, name), 'utf8');
}

function majorMinor(version: string): string {
  return version
    .replace(/^[^\d]*/, '')
    .split('.')
    .slice(0, 2)
    .join('.');
}

describe('stack versions', () => {
  it('pins the Elasticsearch server to the same major.minor as the client', () => {
    const packageJson = JSON.parse(projectFile('package.json')) as { dependencies: Record<string, string> };
    const client = packageJson.dependencies['@elastic/elasticsearch'];
    expect(client).toBeDefined();
    expect(majorMinor(stackVersions.elasticsearch)).toBe(majorMinor(client as string));
  });

  it('leaves the versions to stack/versions.json in docker-compose.yml and the launcher pom', () => {
    const compose = projectFile('docker-compose.yml');
    expect(compose).toContain('elasticsearch:${ELASTICSEARCH_VERSION:?');
    expect(compose).toContain('image: ${MONGO_IMAGE:?');
    expect(compose).not.toContain(`:${stackVersions.elasticsearch}`);
    expect(projectFile('stack/mongo-launcher/pom.xml')).toMatch(
      /<version>\$\{mongoJavaServerVersion\}<\/version>/,
    );
  });

  it('uses MongoDB 7 or 8 where Docker runs', () => {
    expect(stackVersions.mongoImage).toMatch(/^mongo:[78](\.|$)/);
  });
});
