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

  // docker-compose.yml pins the same versions itself (test/unit/compose.test.ts).
  it('leaves the mongo-java-server version to stack/versions.json in the launcher pom', () => {
    expect(projectFile('stack/mongo-launcher/pom.xml')).toMatch(
      /<version>\$\{mongoJavaServerVersion\}<\/version>/,
    );
  });

  it('uses MongoDB 7 or 8 where Docker runs', () => {
    expect(stackVersions.mongoImage).toMatch(/^mongo:[78](\.|$)/);
  });
});
