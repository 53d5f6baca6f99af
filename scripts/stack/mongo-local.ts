import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Jdk } from './jdk.js';
import { dependencyGoal } from './maven.js';
import { isRunning, processesMatching, readPidFile, stopProcess } from './processes.js';
import { jitOptions, projectRoot, type StackSettings } from './settings.js';

const launcherDir = path.join(projectRoot, 'stack/mongo-launcher');

export interface MongoPaths {
  root: string;
  classpathFile: string;
  dataFile: string;
  logFile: string;
  pidFile: string;
}

export function mongoPaths(settings: StackSettings, version: string): MongoPaths {
  const root = path.join(settings.stackDir, 'mongo');
  return {
    root,
    classpathFile: path.join(root, `classpath-${version}.txt`),
    dataFile: path.join(root, 'data.mv.db'),
    logFile: path.join(root, 'mongo.log'),
    pidFile: path.join(root, 'mongo.pid'),
  };
}

/** Resolves mongo-java-server and its H2 backend through Maven (cached in ~/.m2); the jars stay there. */
export async function installMongo(paths: MongoPaths, version: string): Promise<string> {
  if (existsSync(paths.classpathFile)) {
    const classpath = readFileSync(paths.classpathFile, 'utf8').trim();
    if (classpath.split(path.delimiter).every((jar) => existsSync(jar))) return classpath;
  }
  mkdirSync(paths.root, { recursive: true, mode: 0o700 });
  console.log(`[stack] resolving mongo-java-server ${version} with Maven...`);
  await dependencyGoal('build-classpath', [
    '-f',
    path.join(launcherDir, 'pom.xml'),
    `-DmongoJavaServerVersion=${version}`,
    `-Dmdep.outputFile=${paths.classpathFile}`,
  ]);
  return readFileSync(paths.classpathFile, 'utf8').trim();
}

export function runningMongoPid(paths: MongoPaths): number | undefined {
  const pid = readPidFile(paths.pidFile);
  return pid !== undefined && isRunning(pid) ? pid : undefined;
}

/** Starts the launcher detached, logging to the stack folder, and returns its pid. */
export function startMongo(paths: MongoPaths, settings: StackSettings, jdk: Jdk, classpath: string): number {
  mkdirSync(paths.root, { recursive: true, mode: 0o700 });
  const log = openSync(paths.logFile, 'a');
  console.log(
    `[stack] starting the MongoDB-wire server (mongo-java-server, H2) on port ${settings.mongoPort}...`,
  );
  const child = spawn(
    path.join(jdk.home, 'bin/java'),
    [
      '-Xmx512m',
      ...jitOptions(settings),
      '-cp',
      classpath,
      // A single-file source program: no compile step and nothing to build or cache.
      path.join(launcherDir, 'Launcher.java'),
      String(settings.mongoPort),
      paths.dataFile,
    ],
    { detached: true, stdio: ['ignore', log, log] },
  );
  closeSync(log);
  child.unref();
  if (child.pid === undefined) throw new Error('spawning java returned no pid');
  writeFileSync(paths.pidFile, `${child.pid}\n`);
  return child.pid;
}

/** SIGTERM lets the launcher close its H2 store; any other launcher on our data file goes too. */
export async function stopMongo(paths: MongoPaths): Promise<void> {
  const pid = readPidFile(paths.pidFile);
  if (pid !== undefined) await stopProcess(pid);
  for (const leftover of await processesMatching(paths.dataFile)) await stopProcess(leftover);
  rmSync(paths.pidFile, { force: true });
}
