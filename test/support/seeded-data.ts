import type { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CompanyDoc, LeadDoc, SignalDoc } from '../../src/domain/documents.js';
import { createElasticsearchClient, indexNames } from '../../src/stores/elasticsearch.js';
import { deleteIndices, ensureIndices } from '../../src/stores/search-indices.js';
import { tools } from '../../src/tools/registry.js';
import { testBackends } from './backends.js';
import { connectClient, toolError } from './mcp-client.js';
import { SEEDED } from './seed-command.js';
import { createAccountWithKey, startTestServer, type TestServer } from './test-server.js';

/** Midday of the seed's day: every call of a test server happens "today" as the data sees it. */
export const SEEDED_NOW = new Date(`${SEEDED.now}T12:00:00.000Z`);

/**
 * A test server offering the real tools over the seeded data, its clock pinned to the seed's day.
 * `config` overrides settings, e.g. `INDEX_PREFIX` to serve the indices of `openPrivateIndices`.
 */
export function startSeededServer(
  config: Record<string, string> = {},
  options: { cacheClock?: () => number } = {},
): Promise<TestServer> {
  return startTestServer({ tools, clock: () => SEEDED_NOW, config, ...options });
}

/**
 * An account and an SDK client for it. The clock is pinned, so every call of a file falls in one
 * rate-limit minute: the account gets a limit no test reaches.
 */
export async function connectSeededClient(
  server: TestServer,
  options: Parameters<typeof createAccountWithKey>[1] = {},
): Promise<{ client: Client; key: string; accountId: string }> {
  const { account, key } = await createAccountWithKey(server.services, {
    plan: 'scale',
    callsPerMinute: 100_000,
    ...options,
  });
  const client = await connectClient(server.url, key);
  // Fetching the listing makes the SDK client validate structuredContent against each outputSchema.
  await client.listTools();
  return { client, key, accountId: account._id };
}

// Tool results are plain JSON; tests read them loosely and let assertions check the shape.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Json = any;

/** Calls a tool that must succeed and returns its structured content. */
export async function callOk(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Json> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(toolError(result))}`);
  return result.structuredContent;
}

/** Calls a tool that must fail and returns its `{ code, message, details }`. */
export async function callError(client: Client, name: string, args: Record<string, unknown> = {}) {
  return toolError((await client.callTool({ name, arguments: args })) as CallToolResult);
}

/** Direct access to the seeded indices, to check the tools' answers independently of the search code. */
export interface SeededIndex {
  client: ElasticsearchClient;
  indices: ReturnType<typeof indexNames>;
  close(): Promise<void>;
}

function directClient(): ElasticsearchClient {
  return createElasticsearchClient({
    ELASTICSEARCH_URL: testBackends().elasticsearchUrl,
    BACKEND_TIMEOUT_MS: 30_000,
  });
}

export function openSeededIndex(): SeededIndex {
  const client = directClient();
  return { client, indices: indexNames(testBackends().indexPrefix), close: () => client.close() };
}

export interface PrivateIndices extends SeededIndex {
  /** The `INDEX_PREFIX` of a server that should read them. */
  prefix: string;
}

/**
 * Empty indices of a test's own under `<run prefix>-<name>`, for a test that writes documents: the
 * seeded indices stay exactly as seeded for every other test, and the run's teardown removes these
 * with the rest should `close` not be reached.
 */
export async function openPrivateIndices(name: string): Promise<PrivateIndices> {
  const prefix = `${testBackends().indexPrefix}-${name}`;
  const client = directClient();
  await ensureIndices(client, prefix, { recreate: true });
  return {
    client,
    prefix,
    indices: indexNames(prefix),
    close: async () => {
      try {
        await deleteIndices(client, prefix);
      } finally {
        await client.close();
      }
    },
  };
}

/** Every document of an index (the seeded ones are well under the 10,000-hit window). */
async function everyDocument<T>(index: SeededIndex, name: string): Promise<T[]> {
  const response = await index.client.search<T>({ index: name, size: 10_000, query: { match_all: {} } });
  return response.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : []));
}

export const allLeads = (index: SeededIndex) => everyDocument<LeadDoc>(index, index.indices.leads);
export const allCompanies = (index: SeededIndex) => everyDocument<CompanyDoc>(index, index.indices.companies);
export const allSignals = (index: SeededIndex) => everyDocument<SignalDoc>(index, index.indices.signals);

/** Every seeded lead, read once through a connection of its own. */
export async function seededLeads(): Promise<LeadDoc[]> {
  const index = openSeededIndex();
  try {
    return await allLeads(index);
  } finally {
    await index.close();
  }
}

/** The order of `search_leads`: newest first, then by `seq` descending. */
export function newestLeadsFirst(a: LeadDoc, b: LeadDoc): number {
  return b.posted_date.localeCompare(a.posted_date) || b.seq - a.seq;
}

/** The order of `search_signals`: newest first, then by `seq` descending. */
export function newestSignalsFirst(a: SignalDoc, b: SignalDoc): number {
  return b.announced_on.localeCompare(a.announced_on) || b.seq - a.seq;
}

/** `YYYY-MM-DD` of the seeded day minus `days`: the first day a "within `days` days" filter keeps. */
export function seededDaysAgo(days: number): string {
  return new Date(SEEDED_NOW.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

/** The open roles `search_leads` sees by default: agencies left out. */
export function openNonAgencyLeads(leads: readonly LeadDoc[]): LeadDoc[] {
  return leads.filter((lead) => lead.is_open && !lead.company.is_agency);
}
