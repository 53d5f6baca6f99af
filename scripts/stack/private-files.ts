import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { StackError } from './errors.js';
import { run } from './processes.js';

/** Elasticsearch refuses to run as root; when we are root it runs as this system user. */
export const SERVICE_USER = 'hlstack';

/**
 * Makes the stack folder private to the user running the stack: created if missing, mode 0700.
 * It holds the databases' files, their logs and the demo's secrets. As root, Elasticsearch runs as
 * SERVICE_USER and must pass through to its own subfolder: `serviceGroupId` (that user's group)
 * then becomes the folder's group, with mode 0710, which lets it enter but not list or write.
 * A folder (or a symbolic link to one) that someone else owns is refused: its owner could read or
 * swap what the stack keeps there, e.g. a pid file naming a process for root to stop.
 */
export function secureStackDir(stackDir: string, serviceGroupId: number | undefined): void {
  mkdirSync(path.dirname(stackDir), { recursive: true });
  try {
    mkdirSync(stackDir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const me = process.getuid?.();
  // Without user ids (Windows) there is no owner or mode to check.
  if (me === undefined) return;
  for (const stats of [lstatSync(stackDir), statSync(stackDir)]) {
    if (stats.uid !== me) {
      throw new StackError(
        `The stack folder ${stackDir} belongs to another user (uid ${stats.uid}; you are uid ${me}), ` +
          'who could read or change what the stack keeps there. Remove it, or set STACK_DIR to a folder of your own.',
      );
    }
  }
  if (!statSync(stackDir).isDirectory())
    throw new StackError(`The stack folder ${stackDir} is not a folder.`);
  if (serviceGroupId === undefined) {
    chmodSync(stackDir, 0o700);
  } else {
    chownSync(stackDir, me, serviceGroupId);
    chmodSync(stackDir, 0o710);
  }
}

/**
 * As root, the id of SERVICE_USER's own group (named like it) once it exists; otherwise nobody
 * else needs in. Never a shared group such as `nogroup`, whose members would get in too.
 */
export async function serviceGroupId(): Promise<number | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const group = await run('getent', ['group', SERVICE_USER]);
  const gid = Number(group.stdout.split(':')[2]);
  return group.code === 0 && Number.isInteger(gid) ? gid : undefined;
}

/** Writes `text` to a file only its owner may read or write (0600), replacing any earlier one. */
export function writePrivateFile(file: string, text: string): void {
  rmSync(file, { force: true });
  // `wx` fails rather than follow anything put in the file's place since.
  writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
}

/** The text of a private file, made by `create` the first time and reused afterwards. */
export function readOrCreatePrivateFile(file: string, create: () => string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    text = '';
  }
  if (text === '') {
    text = create();
    writePrivateFile(file, `${text}\n`);
  }
  // A file copied in by hand may have been readable by others.
  chmodSync(file, 0o600);
  return text;
}
