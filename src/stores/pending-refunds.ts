import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Logger } from '../logger.js';

/** A quota refund owed to a counter: what the charge holds, or `null` when not known (read from its journal). */
export interface RefundRecord {
  counter: string;
  charge: string;
  units: number | null;
}

/** The first line of every file: whose refunds these are. */
interface FileHeader {
  database: string;
  host: string;
  pid: number;
}

const FILE_PATTERN = /^refunds-\d+-[0-9a-f]+\.jsonl$/;

/** A file left by a dead process is read whole: one far larger than any process writes is not ours. */
const LEFTOVER_FILE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Quota refunds this process owes and MongoDB has not taken yet, written down on the local disk
 * before anything is tried, so that a process that dies first (kill -9, out of memory) leaves them
 * for the next one started on the same folder and host (docs/search-semantics.md, "Metering"). One
 * file per process, one JSON line per refund; a refund is safe to make again however often (it is
 * conditional on its journal entry), so the file is only removed once nothing it holds is owed.
 * Writes go to the operating system at once (`appendFileSync`): a killed process loses none.
 */
export class PendingRefunds {
  private readonly file: string;
  private readonly header: FileHeader;
  /** Refunds written down and not yet landed; at 0 the file is removed. */
  private owed = 0;

  constructor(
    private readonly folder: string,
    database: string,
    private readonly logger: Logger,
  ) {
    this.header = { database, host: hostname(), pid: process.pid };
    this.file = path.join(folder, `refunds-${process.pid}-${randomBytes(6).toString('hex')}.jsonl`);
  }

  /**
   * Writes `records` down; returns, for each, what to call once it has landed (or been given up).
   * Never throws: a refund that cannot be written down is still made, only not kept across a crash.
   */
  keep(records: readonly RefundRecord[]): (() => void)[] {
    if (records.length === 0) return [];
    const lines = records.map((record) => JSON.stringify(record));
    try {
      if (this.owed === 0) {
        mkdirSync(this.folder, { recursive: true, mode: 0o700 });
        assertPrivateFolder(this.folder);
        lines.unshift(JSON.stringify(this.header));
      }
      appendFileSync(this.file, `${lines.join('\n')}\n`, { mode: 0o600 });
    } catch (error) {
      this.logger.error(
        'could not write down owed quota refunds; they are made, but lost if the process dies first',
        {
          file: this.file,
          refunds: records.length,
          error,
        },
      );
      return records.map(() => () => undefined);
    }
    this.owed += records.length;
    return records.map(() => {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        this.owed -= 1;
        if (this.owed === 0) removeFile(this.file);
      };
    });
  }

  /**
   * Takes over the refunds left by processes of this database that ran on this host and are gone:
   * writes them down as this process's own, then removes their files. Files of live processes, of
   * other hosts (a shared folder) and of other databases are left alone.
   */
  adoptLeftovers(): { record: RefundRecord; landed: () => void }[] {
    let names: string[];
    try {
      assertPrivateFolder(this.folder);
      names = readdirSync(this.folder).filter((name) => FILE_PATTERN.test(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.logger.error('not taking over owed quota refunds from this folder', {
          folder: this.folder,
          error,
        });
      }
      return [];
    }
    const adopted: RefundRecord[] = [];
    const orphans: string[] = [];
    for (const name of names) {
      const file = path.join(this.folder, name);
      if (file === this.file) continue;
      const [first = '', ...rest] = readLines(file);
      const header = parseJson(first) as Partial<FileHeader> | undefined;
      if (header?.database !== this.header.database || header.host !== this.header.host) continue;
      if (typeof header.pid !== 'number' || isAnotherLiveProcess(header.pid)) continue;
      orphans.push(file);
      for (const line of rest) {
        const record = parseJson(line) as RefundRecord | undefined;
        if (typeof record?.counter === 'string' && typeof record.charge === 'string') adopted.push(record);
      }
    }
    const landed = this.keep(adopted);
    for (const file of orphans) removeFile(file);
    return adopted.map((record, index) => ({ record, landed: landed[index] ?? (() => undefined) }));
  }
}

/**
 * Whether `pid` is a process other than this one that still runs. A file with this process's own
 * pid is a predecessor's: in a container every start gets the same pid.
 */
function isAnotherLiveProcess(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The folder (by default under the shared temporary folder) must be a directory of this user that
 * no one else can write: refunds are taken over from whatever files it holds.
 */
function assertPrivateFolder(folder: string): void {
  const stats = lstatSync(folder);
  const ownedByUs = process.getuid === undefined || stats.uid === process.getuid();
  if (!stats.isDirectory() || !ownedByUs || (stats.mode & 0o022) !== 0) {
    throw new Error(`${folder} must be a directory of this user that others cannot write to`);
  }
}

function readLines(file: string): string[] {
  try {
    if (statSync(file).size > LEFTOVER_FILE_MAX_BYTES) return [];
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    // A line cut short by a crash mid-write: the rest of the file still counts.
    return undefined;
  }
}

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone (another process adopted it): nothing is owed from it any more.
  }
}
