import { StackError } from './errors.js';
import { commandOnPath, type RunResult, runOrFail } from './processes.js';

/** Pinned so a fresh machine resolves the same goals as ours (`-Dartifact` on `copy` needs 3.x). */
const dependencyPlugin = 'org.apache.maven.plugins:maven-dependency-plugin:3.7.0';

function requireMaven(): void {
  if (!commandOnPath('mvn')) {
    throw new StackError(
      'Maven (`mvn`) is needed once to fetch Elasticsearch and the MongoDB-wire server from Maven Central. ' +
        'Install it (e.g. `apt-get install maven`), or install Docker, or set ELASTICSEARCH_URL and MONGODB_URI.',
    );
  }
}

/** Runs a maven-dependency-plugin goal; Maven's local repository (~/.m2) is the download cache. */
export function dependencyGoal(goal: 'copy' | 'build-classpath', args: string[]): Promise<RunResult> {
  requireMaven();
  return runOrFail('mvn', ['-B', '-q', `${dependencyPlugin}:${goal}`, ...args]);
}
