import versions from '../../stack/versions.json' with { type: 'json' };

/**
 * Where backend versions are pinned (`stack/versions.json`): the local build and the test
 * containers read it; docker-compose.yml names the same images (test/unit/compose.test.ts).
 */
export interface StackVersions {
  /** Elasticsearch server; its major.minor must equal the `@elastic/elasticsearch` client's. */
  elasticsearch: string;
  /** `de.bwaldvogel:mongo-java-server-h2-backend`, the MongoDB-wire server of the local build. */
  mongoJavaServer: string;
  /** The MongoDB image used where Docker is available. */
  mongoImage: string;
}

export const stackVersions: StackVersions = versions;

export function elasticsearchImage(version = stackVersions.elasticsearch): string {
  return `docker.elastic.co/elasticsearch/elasticsearch:${version}`;
}
