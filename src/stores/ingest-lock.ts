import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type Client, errors } from '@elastic/elasticsearch';
import { isIndexAlreadyCreated } from './elasticsearch.js';

/**
 * One writing run (`npm run ingest`, `npm run seed`) per index prefix at a time: two at once
 * could lose each other's writes and miscount the roll-ups. The lock is one document in
 * `<prefix>-ingest-lock`, created only when absent, renewed while its run lives and deleted at
 * its end. Every change to it is conditional on the version its writer last read, so two runs
 * never both hold it; one not renewed for `LOCK_STALE_AFTER_MS` (or unreadable) belonged to a run
 * that died and is taken over (docs/feed.md, "One run at a time").
 */

export interface LockHolder {
  run: string;
  pid: number;
  host: string;
  mode: string;
  started_at: string;
  renewed_at: string;
}

/** A run that died is taken over after this long without renewal; a live run renews far more often. */
export const LOCK_STALE_AFTER_MS = 120_000;
const RENEW_EVERY_MS = 15_000;
const LOCK_ID = 'run';

export function ingestLockIndex(prefix: string): string {
  return `${prefix}-ingest-lock`;
}

export class IngestLockHeld extends Error {
  constructor(prefix: string, holder: LockHolder, silentForMs: number) {
    super(
      `another run is writing to prefix "${prefix}": ${holder.mode} by process ${holder.pid} on ` +
        `${holder.host}, started ${holder.started_at}, last heard from ${Math.max(0, Math.round(silentForMs / 1000))} s ago. ` +
        `Run again once it has ended; a run that died is taken over after ${LOCK_STALE_AFTER_MS / 60_000} minutes of silence`,
    );
  }
}

/** The reason `lost` gives: this run went silent too long and another took the lock over. */
export class IngestLockLost extends Error {
  constructor(prefix: string) {
    super(
      `another run took over the ingest lock of prefix "${prefix}" after this run went ` +
        `${LOCK_STALE_AFTER_MS / 60_000} minutes without renewing it`,
    );
  }
}

export interface IngestLock {
  /** Aborted, with `IngestLockLost` as its reason, once another run has taken the lock over. */
  readonly lost: AbortSignal;
  /** Renews the lock now; it also renews itself every 15 s until released. */
  renew(): Promise<void>;
  /** Stops renewing and deletes the lock if it is still this run's; one it cannot delete goes stale. Never throws. */
  release(): Promise<void>;
}

export interface IngestLockOptions {
  /** What the run does, shown to a run that finds the lock held. */
  mode: string;
  now?: () => number;
}

interface Version {
  if_seq_no: number;
  if_primary_term: number;
}

/** The version a write or read returned, for the next conditional write. */
function versionOf(response: { _seq_no?: number | undefined; _primary_term?: number | undefined }): Version {
  if (response._seq_no === undefined || response._primary_term === undefined) {
    throw new Error('Elasticsearch answered without the document version the ingest lock needs');
  }
  return { if_seq_no: response._seq_no, if_primary_term: response._primary_term };
}

const isStatus = (error: unknown, status: number) =>
  error instanceof errors.ResponseError && error.statusCode === status;

async function createLockIndex(client: Client, index: string): Promise<void> {
  try {
    await client.indices.create({
      index,
      settings: { number_of_shards: 1, auto_expand_replicas: '0-1' },
      mappings: { dynamic: false, properties: {} },
    });
  } catch (error) {
    if (!isIndexAlreadyCreated(error)) throw error;
  }
}

/** The lock's holder and version, or null when no run holds it. */
async function readLock(
  client: Client,
  index: string,
): Promise<{ holder: LockHolder; version: Version } | null> {
  try {
    const found = await client.get<LockHolder>({ index, id: LOCK_ID });
    return found._source ? { holder: found._source, version: versionOf(found) } : null;
  } catch (error) {
    if (isStatus(error, 404)) return null;
    throw error;
  }
}

/**
 * Takes the lock of `prefix` for this run, or throws `IngestLockHeld` naming the run holding it.
 * Release it in a `finally`.
 */
export async function acquireIngestLock(
  client: Client,
  prefix: string,
  options: IngestLockOptions,
): Promise<IngestLock> {
  const index = ingestLockIndex(prefix);
  const now = options.now ?? Date.now;
  const stamp = () => new Date(now()).toISOString();
  const runId = randomUUID();
  const startedAt = stamp();
  const holder = (): LockHolder => ({
    run: runId,
    pid: process.pid,
    host: hostname(),
    mode: options.mode,
    started_at: startedAt,
    renewed_at: stamp(),
  });
  await createLockIndex(client, index);

  let version: Version | undefined;
  // A lock deleted or taken over between the reads and writes below: look again, a few times.
  for (let attempt = 0; attempt < 3 && version === undefined; attempt++) {
    try {
      const created = await client.create({ index, id: LOCK_ID, document: holder() });
      version = versionOf(created);
      break;
    } catch (error) {
      if (!isStatus(error, 409)) throw error;
    }
    const current = await readLock(client, index);
    if (current === null) continue;
    // Our own create, answered 409 because the client resent it after the answer was lost.
    if (current.holder.run === runId) {
      version = current.version;
      break;
    }
    const silentForMs = now() - Date.parse(current.holder.renewed_at);
    if (silentForMs <= LOCK_STALE_AFTER_MS) throw new IngestLockHeld(prefix, current.holder, silentForMs);
    try {
      const taken = await client.index({ index, id: LOCK_ID, document: holder(), ...current.version });
      version = versionOf(taken);
    } catch (error) {
      if (!isStatus(error, 409)) throw error;
    }
  }
  if (version === undefined)
    throw new Error(`could not take the ingest lock of prefix "${prefix}": it kept changing`);
  return heldLock(client, prefix, version, holder);
}

function heldLock(client: Client, prefix: string, taken: Version, holder: () => LockHolder): IngestLock {
  const index = ingestLockIndex(prefix);
  const runId = holder().run;
  const lost = new AbortController();
  let version = taken;
  let renewing: Promise<void> = Promise.resolve();

  /**
   * Makes a write conditional on the lock's version, and says whether the lock is still this
   * run's. A conflict with our own earlier write (its answer lost and the request resent by the
   * client) leaves the lock ours at a newer version: the write is made again at that version.
   */
  const writeIfOurs = async (
    write: (at: Version) => Promise<void>,
  ): Promise<'ours' | 'taken' | 'unknown'> => {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await write(version);
        return 'ours';
      } catch (error) {
        if (!isStatus(error, 409)) return 'unknown';
        const current = await readLock(client, index).catch(() => undefined);
        if (current === undefined) return 'unknown';
        if (current?.holder.run !== runId) return 'taken';
        version = current.version;
      }
    }
    return 'unknown';
  };
  // A failed request (an outage) is tried again at the next renewal.
  const renewOnce = async (): Promise<void> => {
    if (lost.signal.aborted) return;
    const outcome = await writeIfOurs(async (at) => {
      version = versionOf(await client.index({ index, id: LOCK_ID, document: holder(), ...at }));
    });
    if (outcome === 'taken') lost.abort(new IngestLockLost(prefix));
  };
  // Renewals never overlap: each waits for the one before.
  const renew = () => {
    renewing = renewing.then(renewOnce);
    return renewing;
  };
  const timer = setInterval(renew, RENEW_EVERY_MS);
  timer.unref();

  return {
    lost: lost.signal,
    renew,
    release: async () => {
      clearInterval(timer);
      await renewing;
      if (lost.signal.aborted) return;
      // Not this run's any more: left alone. An outage: it goes stale and is taken over.
      await writeIfOurs(async (at) => {
        await client.delete({ index, id: LOCK_ID, ...at });
      });
    },
  };
}
