import versions from '../../stack/versions.json' with { type: 'json' };

/**
 * The one place backend versions are pinned (`stack/versions.json`): the local build, the
 * Docker Compose file (through `ELASTICSEARCH_VERSION`) and the test containers all read it.
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
