/**
 * After the timed runs, the benchmark shows that the limits hold across its server processes: two
 * bursts sent round-robin over them, as the load balancer in front of them would. search_leads pages
 * against an account with a small daily lead_explores quota: exact when the leads served add up to
 * the quota and its counter in MongoDB says the same. Cheap calls against an account with a small
 * calls_per_minute: exact when the calls allowed in the minute are the limit, no more (with more
 * calls than the limit on every process, every call a process leased is spent).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchAccounts } from './accounts.js';
import { callTool, type ToolAnswer } from './mcp-client.js';

/** Not a multiple of the page size, so that the last page served is cut short by the quota. */
const LEAD_EXPLORES = 137;
const PAGE_SIZE = 10;
const QUOTA_CALLS = 40;
const CALLS_PER_MINUTE = 40;
const RATE_CALLS_PER_PROCESS = 60;
const BURST_CONCURRENCY = 16;
/** The rate burst must fall in one minute window: closer than this to a window's end, wait for the next. */
const LAST_SECONDS_AVOIDED = 10;

export interface LimitsAcrossProcesses {
  processes: number;
  leadExplores: {
    limit: number;
    calls: number;
    served: number;
    counted: number;
    refused: Record<string, number>;
    exact: boolean;
  };
  callsPerMinute: {
    limit: number;
    calls: number;
    allowed: number;
    refused: Record<string, number>;
    exact: boolean;
  };
}

export async function checkLimitsAcrossProcesses(
  urls: readonly URL[],
  accounts: BenchAccounts,
): Promise<LimitsAcrossProcesses> {
  const quotaAccount = await accounts.create({ leadExplores: LEAD_EXPLORES });
  const pages = await spread(urls, quotaAccount.key, QUOTA_CALLS, 'search_leads', { page_size: PAGE_SIZE });
  const served = pages.reduce(
    (sum, page) => sum + (page.isError ? 0 : Number(page.structuredContent?.returned ?? 0)),
    0,
  );
  const counted = await accounts.used(quotaAccount.accountId, 'lead_explores');

  const rateAccount = await accounts.create({ callsPerMinute: CALLS_PER_MINUTE });
  const secondsLeft = 60 - new Date().getUTCSeconds();
  if (secondsLeft <= LAST_SECONDS_AVOIDED) await sleep(secondsLeft * 1000 + 100);
  const calls = await spread(
    urls,
    rateAccount.key,
    RATE_CALLS_PER_PROCESS * urls.length,
    'get_filter_options',
    {},
  );
  const allowed = calls.filter((answer) => !answer.isError).length;

  return {
    processes: urls.length,
    leadExplores: {
      limit: LEAD_EXPLORES,
      calls: QUOTA_CALLS,
      served,
      counted,
      refused: refusals(pages),
      exact: served === LEAD_EXPLORES && counted === LEAD_EXPLORES,
    },
    callsPerMinute: {
      limit: CALLS_PER_MINUTE,
      calls: calls.length,
      allowed,
      refused: refusals(calls),
      exact: allowed === CALLS_PER_MINUTE,
    },
  };
}

/** `count` calls from BURST_CONCURRENCY workers, call i going to process i mod N. */
async function spread(
  urls: readonly URL[],
  key: string,
  count: number,
  tool: string,
  args: Record<string, unknown>,
): Promise<ToolAnswer[]> {
  const answers: ToolAnswer[] = [];
  let next = 0;
  const worker = async () => {
    for (let id = next++; id < count; id = next++) {
      answers.push(await callTool(urls[id % urls.length] as URL, key, id, tool, args));
    }
  };
  await Promise.all(Array.from({ length: BURST_CONCURRENCY }, worker));
  return answers;
}

function refusals(answers: readonly ToolAnswer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { errorCode } of answers)
    if (errorCode !== undefined) counts[errorCode] = (counts[errorCode] ?? 0) + 1;
  return counts;
}
