import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import { StackError } from './errors.js';

export type ClusterStatus = 'green' | 'yellow' | 'red';

/** The cluster's health, or undefined when it does not answer. (`GET /` does not exist in the integ-test build.) */
export async function elasticsearchStatus(url: string): Promise<ClusterStatus | undefined> {
  try {
    const response = await fetch(new URL('/_cluster/health', url), { signal: AbortSignal.timeout(3_000) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { status?: ClusterStatus };
    return body.status;
  } catch {
    return undefined;
  }
}

export async function elasticsearchHealthy(url: string): Promise<boolean> {
  const status = await elasticsearchStatus(url);
  return status === 'green' || status === 'yellow';
}

export async function mongoAnswers(uri: string): Promise<boolean> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 2_000, connectTimeoutMS: 2_000 });
  try {
    await client.db('admin').command({ ping: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => undefined);
  }
}

export interface WaitOptions {
  what: string;
  timeoutMs: number;
  /** Checked between attempts: stop waiting at once when the server has died. */
  stillStarting?: () => boolean;
  hint?: string;
}

export async function waitUntil(check: () => Promise<boolean>, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    if (options.stillStarting && !options.stillStarting()) {
      throw new StackError(`${options.what} exited while starting.${options.hint ? ` ${options.hint}` : ''}`);
    }
    await sleep(1_000);
  }
  throw new StackError(
    `${options.what} did not answer within ${Math.round(options.timeoutMs / 1000)} s.${options.hint ? ` ${options.hint}` : ''}`,
  );
}
