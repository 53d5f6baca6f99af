import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { StackError } from './errors.js';

export interface Jdk {
  home: string;
  major: number;
}

/** Elasticsearch 9 needs Java 21 or newer; the MongoDB-wire launcher runs on the same JDK. */
const minimumJavaMajor = 21;

const jdkRoots = ['/usr/lib/jvm', '/Library/Java/JavaVirtualMachines'];

/** Reads the major version from a JDK's `release` file (`JAVA_VERSION="25.0.3"`, or `"1.8.0_392"` for 8). */
export function parseJavaMajor(releaseFile: string): number | undefined {
  const version = /^JAVA_VERSION="([^"]+)"/m.exec(releaseFile)?.[1];
  if (!version) return undefined;
  const [first, second] = version.split('.').map(Number);
  return first === 1 ? second : first;
}

/** The newest JDK at or above the minimum. */
export function pickJdk(candidates: Jdk[], minimumMajor: number): Jdk | undefined {
  return candidates
    .filter((jdk) => jdk.major >= minimumMajor)
    .sort((a, b) => b.major - a.major || a.home.localeCompare(b.home))[0];
}

function describeJdk(home: string): Jdk | undefined {
  const resolved = existsSync(home) ? realpathSync(home) : home;
  const javaHome = existsSync(path.join(resolved, 'Contents/Home'))
    ? path.join(resolved, 'Contents/Home')
    : resolved;
  if (!existsSync(path.join(javaHome, 'bin/java'))) return undefined;
  try {
    const major = parseJavaMajor(readFileSync(path.join(javaHome, 'release'), 'utf8'));
    return major === undefined ? undefined : { home: javaHome, major };
  } catch {
    return undefined;
  }
}

function installedJdks(env: Record<string, string | undefined>): Jdk[] {
  const homes = jdkRoots.flatMap((root) => {
    try {
      return readdirSync(root).map((name) => path.join(root, name));
    } catch {
      return [];
    }
  });
  if (env.JAVA_HOME) homes.push(env.JAVA_HOME);
  const unique = new Map<string, Jdk>();
  for (const jdk of homes.map(describeJdk)) if (jdk) unique.set(jdk.home, jdk);
  return [...unique.values()];
}

/** `ES_JAVA_HOME` when set (and new enough), else the newest suitable JDK installed. */
export function findJdk(env: Record<string, string | undefined> = process.env): Jdk {
  const installHint =
    `Install a JDK ${minimumJavaMajor} or newer (e.g. \`apt-get install openjdk-${minimumJavaMajor}-jdk-headless\`, ` +
    'or Eclipse Temurin from https://adoptium.net), or point ES_JAVA_HOME at one.';
  if (env.ES_JAVA_HOME) {
    const chosen = describeJdk(env.ES_JAVA_HOME);
    if (!chosen)
      throw new StackError(`ES_JAVA_HOME=${env.ES_JAVA_HOME} is not a JDK (no bin/java and release file).`);
    if (chosen.major < minimumJavaMajor) {
      throw new StackError(`ES_JAVA_HOME=${env.ES_JAVA_HOME} is Java ${chosen.major}. ${installHint}`);
    }
    return chosen;
  }
  const found = installedJdks(env);
  const chosen = pickJdk(found, minimumJavaMajor);
  if (!chosen) {
    const seen = found.length
      ? ` Found only: ${found.map((jdk) => `${jdk.home} (Java ${jdk.major})`).join(', ')}.`
      : '';
    throw new StackError(`No JDK ${minimumJavaMajor}+ under ${jdkRoots.join(' or ')}.${seen} ${installHint}`);
  }
  return chosen;
}
