import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/auth/scopes.js';
import { MAX_BODY_BYTES } from '../../src/http/mcp-endpoint.js';
import { QUOTA_KEYS } from '../../src/plans.js';
import { createServices } from '../../src/services.js';
import { createElasticsearchClient } from '../../src/stores/elasticsearch.js';
import { connectMongo } from '../../src/stores/mongo.js';
import { tools as toolDefinitions } from '../../src/tools/registry.js';
import { fuzzCharacter, hostileString } from '../fuzz/arbitraries.js';
import {
  checkJsonRpcAnswer,
  checkNoServerFault,
  checkToolResult,
  FuzzFailure,
  fieldIsPresent,
  fieldName,
  type ToolError,
} from '../fuzz/checks.js';
import {
  type ExpectedAnswer,
  envelope,
  expectedAnswers,
  JSON_RPC,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../fuzz/envelopes.js';
import type { HttpAnswer, HttpRequest } from '../fuzz/http-client.js';
import { abbreviate, type FuzzJson, toJsonText } from '../fuzz/json-text.js';
import { type ServerProcess, startServerProcess } from '../fuzz/server-process.js';
import {
  anyArguments,
  type KnownValues,
  poisonedArguments,
  type ToolSchema,
} from '../fuzz/tool-arguments.js';
import { compiledServerCommand, testConfig, testEnv } from '../support/backends.js';
import { runLog } from '../support/run-log.js';
import { seededLeads } from '../support/seeded-data.js';
import { createAccountWithKey } from '../support/test-server.js';

/**
 * Property-based fuzzing of the real server, run as its own process over HTTP against the real
 * backends. `FUZZ_RUNS` (default 2000) cases are shared among the properties; `FUZZ_SEED` and
 * `FUZZ_PATH` replay a failure (`npm run fuzz -- --seed S --path P -t "<test name>"`).
 */
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED =
  process.env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED);
const REPLAY_PATH = process.env.FUZZ_PATH;

/** How the cases are shared: tool arguments get the most, as they reach the most code. */
const SHARES = {
  envelopes: 0.2,
  toolArguments: 0.25,
  poisonedArgument: 0.2,
  bearerTokens: 0.1,
  cursors: 0.1,
  httpFraming: 0.15,
} as const;

const runsOf = (property: keyof typeof SHARES) => Math.max(1, Math.round(TOTAL_RUNS * SHARES[property]));
/** Generous: a case takes a few milliseconds to a few hundred on a busy two-core machine, and shrinking repeats cases. */
const timeoutOf = (property: keyof typeof SHARES) => 180_000 + runsOf(property) * 1_000;

/**
 * The server's old-generation heap cap here: about four times what it holds after warming up, and
 * far below what the cases would leave behind if it kept them (hundreds of them send bodies near
 * the 1 MiB limit). A server that keeps what it should not runs out of memory and dies, which the
 * last check sees: memory is checked by behaviour, not by a reading of resident memory, which V8
 * and the allocator give back to the system only when they see fit.
 */
const MAX_OLD_SPACE_MIB = 192;

const DEVELOPMENT_SECRET = 'dev-only-secret-change-me-in-production';

let server: ServerProcess;
let closeStores: () => Promise<void>;
let tools: ToolSchema[];
let toolNames: string[];
let known: KnownValues;
/** The account of the metered properties: each of its refused calls is checked against its usage. */
let meteredKey: string;
let meteredUsage: Usage | undefined;
/** The account of the others. */
let otherKey: string;
let otherAccountId: string;
let issuedCursors: Array<{ tool: string; args: Record<string, unknown>; cursor: string }>;
/** Access tokens signed as this server signs them, but with secrets it does not use. */
let forgedTokens: string[];
let baselineRss: number;

/**
 * Runs a property with its share of the cases. `check` throws on a violation and otherwise names
 * the outcome (an HTTP status, a tool error code): the tally shows what the cases reached.
 */
async function assertProperty<T>(
  property: keyof typeof SHARES,
  arbitrary: fc.Arbitrary<T>,
  check: (value: T) => Promise<string>,
): Promise<void> {
  console.log(`[fuzz] ${property}: ${runsOf(property)} cases, seed ${SEED}`);
  const outcomes = new Map<string, number>();
  const tallied = async (value: T) => {
    const outcome = await check(value);
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  };
  await fc.assert(fc.asyncProperty(arbitrary, tallied), {
    numRuns: runsOf(property),
    seed: SEED,
    ...(REPLAY_PATH !== undefined && { path: REPLAY_PATH }),
  });
  const tally = [...outcomes].sort(([, a], [, b]) => b - a).map(([outcome, count]) => `${outcome} ${count}`);
  console.log(`[fuzz] ${property} outcomes: ${tally.join(', ')}`);
}

/** A tool call's outcome for the tally. */
const outcomeOf = (error: ToolError | null | undefined) =>
  error === undefined ? '413' : (error?.code ?? 'ok');

/** An HTTP answer's outcome for the tally: its status and JSON-RPC error code, if any. */
function answerOutcome(answer: HttpAnswer): string {
  const code = (answer.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'number' ? `${answer.status}/${code}` : String(answer.status);
}

/** Wraps a request so that fast-check prints it short (bodies run to a megabyte). */
function printable<T extends object>(value: T, describe: () => string): T {
  return Object.assign(value, { [fc.toStringMethod]: describe });
}

function describeRequest(request: HttpRequest): string {
  const headers = Object.entries(request.headers)
    .filter(([name]) => name !== 'Authorization')
    .map(([name, value]) => `${name}: ${abbreviate(value, 100)}`)
    .join(', ');
  const body = request.body === undefined ? '' : ` ${abbreviate(request.body.toString('utf8'), 300)}`;
  return `${request.method} ${request.path} [${headers}]${body}`;
}

const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

function postJson(token: string, text: string): HttpRequest {
  return {
    method: 'POST',
    path: '/mcp',
    headers: { ...JSON_HEADERS, Authorization: `Bearer ${token}` },
    body: Buffer.from(text, 'utf8'),
  };
}

/** The request the server died on, if it died: fast-check then shrinks to any case at all, so only this one tells why. */
let fatalRequest: string | undefined;

async function send(request: HttpRequest): Promise<HttpAnswer> {
  let answer: HttpAnswer;
  try {
    answer = await server.client.send(request);
  } catch (error) {
    // A dropped connection may be the process dying: give its exit a moment to be seen.
    await Promise.race([server.exited, sleep(1_000)]);
    if (server.alive()) throw new FuzzFailure(`no answer: ${String(error)}`, request);
    fatalRequest ??= `${describeRequest(request)}\nits last output:\n${server.recentOutput()}`;
    throw new FuzzFailure(
      `the server process is gone; the first request without an answer was ${fatalRequest}`,
      request,
    );
  }
  checkNoServerFault(request, answer);
  return answer;
}

let nextId = 1;
function toolCall(name: string, args: FuzzJson): { id: number; text: string } {
  const id = nextId++;
  return {
    id,
    text: toJsonText({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
  };
}

async function callTool(
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const call = toolCall(name, args as FuzzJson);
  const request = postJson(token, call.text);
  const answer = await send(request);
  const result = checkJsonRpcAnswer(request, answer, [{ kind: 'result', id: call.id, method: 'tools/call' }]);
  if (checkToolResult(request, answer, result) !== null)
    throw new FuzzFailure('the setup call failed', request, answer);
  return (result as { structuredContent: Record<string, unknown> }).structuredContent;
}

interface Usage {
  used: Record<string, number>;
  credits: number;
  /** The quota day; counters start again at midnight UTC, which is not a charge. */
  day: string;
}

async function readUsage(token: string): Promise<Usage> {
  const usage = (await callTool(token, 'get_account_usage', {})) as {
    daily_quotas: Record<string, { used: number; resets_at: string }>;
    enrichment_credits: { remaining: number };
  };
  return {
    used: Object.fromEntries(QUOTA_KEYS.map((key) => [key, usage.daily_quotas[key]?.used ?? Number.NaN])),
    credits: usage.enrichment_credits.remaining,
    day: usage.daily_quotas.lead_explores?.resets_at ?? '',
  };
}

/** The answer to a body over the size limit: refused before it is read. */
const OVERSIZE: ExpectedAnswer = { kind: 'error', codes: [JSON_RPC.invalidRequest], statuses: [413] };

const isOversize = (request: HttpRequest) => (request.body?.length ?? 0) > MAX_BODY_BYTES;

/**
 * Calls a tool on the metered account and checks the answer: a contract tool result (or 413 for a
 * body over the limit) and, when the call was refused, usage exactly as before it. `error` is
 * `undefined` for an oversize body, `null` for a success.
 */
/** The output schemas that successful results must match exactly. */
const toolsByName = new Map(toolDefinitions.map((tool) => [tool.name, tool]));

async function callMetered(
  name: string,
  args: FuzzJson,
): Promise<{ request: HttpRequest; answer: HttpAnswer; error: ToolError | null | undefined; sent: unknown }> {
  // Only these calls use the metered account, one at a time: its usage after one call is its usage before the next.
  const before = meteredUsage ?? (await readUsage(meteredKey));
  meteredUsage = undefined;
  const call = toolCall(name, args);
  const request = postJson(meteredKey, call.text);
  const answer = await send(request);
  let error: ToolError | null | undefined;
  if (isOversize(request)) {
    checkJsonRpcAnswer(request, answer, [OVERSIZE]);
  } else {
    const result = checkJsonRpcAnswer(request, answer, [
      { kind: 'result', id: call.id, method: 'tools/call' },
    ]);
    error = checkToolResult(request, answer, result, toolsByName.get(name)?.outputSchema);
  }
  const after = await readUsage(meteredKey);
  meteredUsage = after;
  if (error !== null) {
    if (
      after.day === before.day &&
      (after.credits !== before.credits || !isSameUsage(after.used, before.used))
    ) {
      throw new FuzzFailure(
        `a refused call (${error?.code ?? 413}) moved usage: ${JSON.stringify(before)} → ${JSON.stringify(after)}`,
        request,
        answer,
      );
    }
  }
  const sent = (JSON.parse(call.text) as { params: { arguments: unknown } }).params.arguments;
  return { request, answer, error, sent };
}

function isSameUsage(a: Record<string, number>, b: Record<string, number>): boolean {
  return QUOTA_KEYS.every((key) => a[key] === b[key]);
}

beforeAll(async () => {
  const env = testEnv();
  server = await startServerProcess(
    {
      ...env,
      // The failed-auth limiter has tests of its own; here it would turn bearer-token cases into 429s.
      UNAUTHENTICATED_CALLS_PER_MINUTE: '100000000',
      // A bounded heap, as in a container with a memory limit: V8 then collects before it grows, so
      // resident memory says whether anything is kept (a leak ends in an out-of-memory crash) rather
      // than how much each Node release lets garbage pile up first (Node 24 far more than Node 20).
      NODE_OPTIONS: `--max-old-space-size=${MAX_OLD_SPACE_MIB}`,
    },
    compiledServerCommand(),
  );
  const config = testConfig();
  const mongo = await connectMongo(config);
  const elasticsearch = createElasticsearchClient(config);
  const services = createServices({ config, elasticsearch, mongo, logger: runLog() });
  closeStores = async () => {
    await Promise.allSettled([mongo.client.close(), elasticsearch.close()]);
  };
  const unlimited = Object.fromEntries(QUOTA_KEYS.map((key) => [key, null]));
  const createAccount = async () => {
    const { account, key } = await createAccountWithKey(services, {
      plan: 'scale',
      callsPerMinute: 100_000_000,
    });
    await services.accounts.update(account._id, { quota_overrides: unlimited }, new Date());
    return { accountId: account._id, key };
  };
  ({ key: meteredKey } = await createAccount());
  ({ key: otherKey, accountId: otherAccountId } = await createAccount());

  const listing = await send(postJson(otherKey, '{"jsonrpc":"2.0","id":0,"method":"tools/list"}'));
  tools = (listing.json as { result: { tools: ToolSchema[] } }).result.tools;
  toolNames = tools.map((tool) => tool.name);

  const leads = await seededLeads();
  const openLeads = leads.filter((lead) => lead.is_open).slice(0, 20);
  const closedLeads = leads.filter((lead) => !lead.is_open).slice(0, 10);
  known = {
    idsByPattern: {
      '^ld_[0-9A-Za-z]{10}$': [...openLeads, ...closedLeads].map((lead) => lead.id),
      '^co_[0-9A-Za-z]{10}$': [
        ...new Set(openLeads.flatMap((lead) => (lead.company.id ? [lead.company.id] : []))),
      ],
    },
  };

  issuedCursors = [];
  for (const [tool, args] of [
    ['search_leads', { page_size: 1 }],
    ['search_leads', { page_size: 2, work_type: 'Remote', include_recruitment_agencies: true }],
    ['search_companies', { page_size: 1 }],
    ['search_signals', { page_size: 1, polarity: 'positive' }],
  ] as const) {
    const page = await callTool(otherKey, tool, args);
    if (typeof page.next_cursor !== 'string') throw new Error(`${tool} gave no next_cursor to fuzz`);
    issuedCursors.push({ tool, args, cursor: page.next_cursor });
  }

  // Well-formed tokens for a real account, signed by keys the server never had.
  const { privateKey: strangersKey } = await generateKeyPair('ES256');
  const forge = (expiresInSeconds: number) =>
    new SignJWT({ account_id: otherAccountId, gid: 'grant-nobody-made', scope: SCOPES.join(' ') })
      .setSubject('usr_0000000000')
      .setIssuer(server.baseUrl)
      .setAudience(`${server.baseUrl}/mcp`)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds);
  forgedTokens = await Promise.all(
    [600, 3600, -60].flatMap((expiresInSeconds) => [
      forge(expiresInSeconds).setProtectedHeader({ alg: 'ES256' }).sign(strangersKey),
      ...[DEVELOPMENT_SECRET, 'secret', randomBytes(48).toString('base64')].map((secret) =>
        forge(expiresInSeconds).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret)),
      ),
    ]),
  );

  // The baseline is the working size, not the cold start: a sample of every kind of case first, answers unchecked.
  const warmUp = [
    ...fc
      .sample(envelope(toolNames), { numRuns: 50, seed: 1 })
      .map((message) => postJson(otherKey, toJsonText(message))),
    ...fc.sample(httpFraming(), { numRuns: 50, seed: 1 }).map((framing) => framing.request),
    ...tools.flatMap((tool) =>
      fc
        .sample(anyArguments(tool.inputSchema, known), { numRuns: 10, seed: 1 })
        .map((args) => postJson(otherKey, toolCall(tool.name, args).text)),
    ),
  ];
  for (const request of warmUp) await server.client.send(request).catch(() => undefined);
  baselineRss = server.rssBytes();
  console.log(`[fuzz] server pid ${server.pid} on ${server.baseUrl}; baseline RSS ${mib(baselineRss)}`);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await closeStores?.();
});

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

describe('the /mcp endpoint under fuzzing', () => {
  it(
    'answers hostile JSON-RPC envelopes with the right JSON-RPC code, never 5xx or -32603',
    async () => {
      const cases = envelope(toolNames).map((message) => {
        const request = postJson(otherKey, toJsonText(message));
        return printable({ message, request }, () => describeRequest(request));
      });
      await assertProperty('envelopes', cases, async ({ request }) => {
        const answer = await send(request);
        const message = decodeAsServer(request.body ?? Buffer.alloc(0));
        const expected = isOversize(request) ? [OVERSIZE] : expectedAnswers(message, toolNames);
        const result = checkJsonRpcAnswer(request, answer, expected);
        if (
          expected.some((candidate) => candidate.kind === 'result' && candidate.method === 'tools/call') &&
          result !== undefined
        ) {
          return `tools/call ${outcomeOf(checkToolResult(request, answer, result))}`;
        }
        return answerOutcome(answer);
      });
    },
    timeoutOf('envelopes'),
  );

  it(
    'refuses hostile tool arguments with the documented errors naming a field that was sent, charging nothing',
    async () => {
      const cases = fc
        .constantFrom(...tools)
        .chain((tool) => anyArguments(tool.inputSchema, known).map((args) => ({ tool, args })))
        .map((value) =>
          printable(value, () => `${value.tool.name} ${abbreviate(toJsonText(value.args), 400)}`),
        );
      await assertProperty('toolArguments', cases, async ({ tool, args }) => {
        const { request, answer, error, sent } = await callMetered(tool.name, args);
        if (!error || !['invalid_argument', 'not_found'].includes(error.code)) return outcomeOf(error);
        const field = error.details.field;
        const required = tool.inputSchema.required ?? [];
        if (typeof field !== 'string' || !(fieldIsPresent(sent, field) || required.includes(field))) {
          throw new FuzzFailure(
            `${error.code} names ${JSON.stringify(field)}, which is neither a field sent nor a required one`,
            request,
            answer,
          );
        }
        // Whether the message repeats the name is checked where the one bad argument is known; here a
        // message may rightly speak of the value instead ("This role has closed").
        return error.code;
      });
    },
    timeoutOf('toolArguments'),
  );

  it(
    'names exactly the one bad argument of an otherwise valid call, charging nothing',
    async () => {
      const cases = fc
        .constantFrom(...tools)
        .chain((tool) =>
          poisonedArguments(tool.inputSchema, known).map((poisoned) => ({ tool, ...poisoned })),
        )
        .map((value) =>
          printable(
            value,
            () => `${value.tool.name} ${abbreviate(toJsonText(value.args), 400)} → ${value.field}`,
          ),
        );
      await assertProperty('poisonedArgument', cases, async ({ tool, args, field }) => {
        const { request, answer, error } = await callMetered(tool.name, args);
        if (error === undefined) return '413'; // over the size limit: refused before the arguments are read
        if (error?.code !== 'invalid_argument' || error.details.field !== field) {
          throw new FuzzFailure(`expected invalid_argument on ${JSON.stringify(field)}`, request, answer);
        }
        if (!error.message.includes(fieldName(field))) {
          throw new FuzzFailure(`the message does not mention ${fieldName(field)}`, request, answer);
        }
        return error.code;
      });
    },
    timeoutOf('poisonedArgument'),
  );

  it(
    'refuses every bearer credential but the real key with 401 and a challenge',
    async () => {
      const cases = authorizationHeader().map((header) => {
        const request: HttpRequest = {
          method: 'POST',
          path: '/mcp',
          headers: { ...JSON_HEADERS, ...(header !== undefined && { Authorization: header }) },
          body: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}'),
        };
        return printable(
          { header, request },
          () => `Authorization: ${header === undefined ? '(none)' : abbreviate(header, 200)}`,
        );
      });
      await assertProperty('bearerTokens', cases, async ({ header, request }) => {
        const answer = await send(request);
        // The header as HTTP delivers it (surrounding spaces and tabs are not part of a field value).
        const delivered = header?.replace(/^[ \t]+|[ \t]+$/g, '');
        const token = delivered === undefined ? undefined : /^bearer +(\S+)$/i.exec(delivered)?.[1];
        if (token === otherKey) {
          checkJsonRpcAnswer(request, answer, [{ kind: 'result', id: 1, method: 'ping' }]);
          return 'accepted';
        }
        const body = answer.json as { error?: unknown } | undefined;
        const challenge = String(answer.headers['www-authenticate'] ?? '');
        if (answer.status !== 401 || body?.error !== 'invalid_token' || !challenge.startsWith('Bearer ')) {
          throw new FuzzFailure('expected 401 invalid_token with a Bearer challenge', request, answer);
        }
        if (header === undefined && challenge.includes('error=')) {
          throw new FuzzFailure(
            'a request without credentials gets a challenge without an error',
            request,
            answer,
          );
        }
        return 'refused';
      });
    },
    timeoutOf('bearerTokens'),
  );

  it(
    'refuses every cursor but the ones it issued, naming cursor, charging nothing',
    async () => {
      const cases = fc
        .record({
          issued: fc.constantFrom(...issuedCursors),
          // Mostly the issuing tool; sometimes another search, which must not take it either.
          tool: fc.option(fc.constantFrom(...toolNames.filter((name) => name.startsWith('search_'))), {
            nil: undefined,
            freq: 4,
          }),
        })
        .chain(({ issued, tool }) =>
          cursorLike(issued.cursor).map((cursor) => ({ issued, cursor, tool: tool ?? issued.tool })),
        )
        .filter(({ issued, cursor, tool }) => !(cursor === issued.cursor && tool === issued.tool))
        .map((value) =>
          printable(
            value,
            () => `${value.tool} with ${abbreviate(value.cursor, 200)} (from ${value.issued.tool})`,
          ),
        );
      await assertProperty('cursors', cases, async ({ issued, cursor, tool }) => {
        // The issuing call's arguments: only the cursor (or the tool) differs from a valid follow-up.
        const { request, answer, error } = await callMetered(tool, { ...issued.args, cursor } as FuzzJson);
        if (error === undefined) return '413'; // over the size limit
        if (tool !== issued.tool && error?.code === 'invalid_argument' && error.details.field !== 'cursor') {
          return 'another argument refused'; // another tool may refuse the issuing call's arguments before it reads the cursor
        }
        if (error?.code !== 'invalid_argument' || error.details.field !== 'cursor') {
          throw new FuzzFailure('expected invalid_argument on "cursor"', request, answer);
        }
        return 'cursor refused';
      });
    },
    timeoutOf('cursors'),
  );

  it(
    'answers hostile HTTP framing (methods, paths, content types, encodings, raw bodies, headers) without 5xx',
    async () => {
      await assertProperty('httpFraming', httpFraming(), async ({ request, expectation }) => {
        const answer = await send(request);
        if (expectation.statuses !== undefined) {
          if (!expectation.statuses.includes(answer.status)) {
            throw new FuzzFailure(
              `expected HTTP ${expectation.statuses.join('/')} (${expectation.why})`,
              request,
              answer,
            );
          }
          if (answer.status >= 400 && request.method !== 'HEAD' && answer.json === undefined) {
            throw new FuzzFailure('an error without a JSON body', request, answer);
          }
          return answerOutcome(answer);
        }
        checkJsonRpcAnswer(request, answer, expectedAnswers(expectation.message, toolNames));
        return answerOutcome(answer);
      });
    },
    timeoutOf('httpFraming'),
  );

  it('is still up within its capped heap, serves a body at the size limit and a call, and logged no error', async () => {
    expect(server.alive(), server.recentOutput()).toBe(true);
    const health = await server.client.send({ method: 'GET', path: '/healthz', headers: {} });
    expect(health.status).toBe(200);
    // Still room for the largest body it takes, and for a call: nothing the cases sent was kept.
    const largest = toolCall('search_leads', { title: 'x'.repeat(MAX_BODY_BYTES - 200) });
    const refused = await send(postJson(otherKey, largest.text));
    expect(refused.status).toBe(200);
    expect(await callTool(otherKey, 'search_leads', { page_size: 1 })).toMatchObject({ returned: 1 });
    expect(server.alive(), server.recentOutput()).toBe(true);
    // The figures, for comparing runs (`npm run fuzz -- --runs N`), not a check.
    console.log(
      `[fuzz] ${TOTAL_RUNS} cases: RSS baseline ${mib(baselineRss)}, after ${mib(server.rssBytes())}, peak ${mib(server.peakRssBytes())}`,
    );
    const errors = server.errorLog();
    expect(
      errors.count,
      `the server logged errors:\n${errors.lines.map((line) => abbreviate(line, 800)).join('\n')}`,
    ).toBe(0);
  });
});

const base62 = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'.split(''));
const base64url = fc.constantFrom(
  ...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_'.split(''),
);

/** Authorization headers: API-key-shaped, JWT-shaped, forged, mutated, garbage, odd schemes and spacing. */
function authorizationHeader(): fc.Arbitrary<string | undefined> {
  const apiKeyShaped = fc
    .string({ unit: base62, minLength: 32, maxLength: 32 })
    .map((random) => `hl_live_${random}`);
  const mutatedKey = fc
    .tuple(fc.nat(), base62)
    .map(([at, character]) => {
      const index = 8 + (at % 32);
      return `${otherKey.slice(0, index)}${character}${otherKey.slice(index + 1)}`;
    })
    .filter((key) => key !== otherKey);
  const segment = fc.string({ unit: base64url, minLength: 0, maxLength: 60 });
  const jwtShaped = fc.tuple(segment, segment, segment).map((parts) => parts.join('.'));
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsignedJwt = fc
    .constantFrom('none', 'None', 'HS256', 'RS256', 'ES256', '')
    .map(
      (alg) =>
        `${encode({ alg, typ: 'JWT' })}.${encode({ sub: 'u', account_id: otherAccountId, scope: 'leads:read', exp: 4e9 })}.`,
    );
  const token = fc.oneof(
    apiKeyShaped,
    mutatedKey,
    jwtShaped,
    unsignedJwt,
    fc.constantFrom(...forgedTokens),
    fc.string({ unit: fuzzCharacter, maxLength: 60 }).filter((text) => !/[\r\n\0]/.test(text)),
    fc.constantFrom(
      'hl_live_',
      `hl_test_${'a'.repeat(32)}`,
      otherKey.toLowerCase(),
      `${otherKey}x`,
      otherKey.slice(0, -1),
      'null',
      '""',
    ),
  );
  const header = fc.tuple(
    fc.constantFrom(
      'Bearer ',
      'bearer ',
      'BEARER ',
      'Bearer  ',
      'Bearer\t',
      'Basic ',
      'Token ',
      '',
      'Bearer',
      'Bearer: ',
    ),
    fc.oneof({ weight: 5, arbitrary: token }, { weight: 1, arbitrary: fc.constant(otherKey) }),
    fc.constantFrom('', ' ', '  ', ' extra', ',', '\t'),
  );
  return fc
    .oneof(
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 10, arbitrary: header.map(([scheme, value, suffix]) => `${scheme}${value}${suffix}`) },
    )
    .filter((value) => value === undefined || isSendableHeader(value));
}

/** Node refuses to send header values with control characters or non-Latin-1 ones; HTTP cannot carry them. */
function isSendableHeader(value: string): boolean {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(value);
}

/** A cursor this server issued, changed: a character flipped, dropped or added, re-encoded, truncated, or something else entirely. */
function cursorLike(issued: string): fc.Arbitrary<string> {
  const at = fc.nat({ max: issued.length - 1 });
  const [payload = '', signature = ''] = issued.split('.');
  return fc.oneof(
    fc
      .tuple(at, base64url)
      .map(([index, character]) => `${issued.slice(0, index)}${character}${issued.slice(index + 1)}`),
    at.map((index) => `${issued.slice(0, index)}${issued.slice(index + 1)}`),
    fc
      .tuple(at, fc.oneof(base64url, fc.constantFrom('=', '.', ' ', '+', '/', '%', '\u0000')))
      .map(([index, character]) => `${issued.slice(0, index)}${character}${issued.slice(index)}`),
    fc.constantFrom('=', '==', '.', '.x', ' ', '\n', 'A', '%3D').map((suffix) => `${issued}${suffix}`),
    fc.constantFrom(
      `${payload}.${signature}.${signature}`,
      `${payload}..${signature}`,
      `.${signature}`,
      `${payload}.`,
      payload,
      signature,
      `${signature}.${payload}`,
      issued.toUpperCase(),
      issued.replace(/-/g, '+').replace(/_/g, '/'),
      `${Buffer.from(Buffer.from(payload, 'base64url').toString('utf8')).toString('base64')}.${signature}`,
      `${payload}.${Buffer.from(signature, 'base64url').toString('base64')}`,
      encodeURIComponent(issued),
      issued.repeat(2),
    ),
    // A forged payload: a larger `served` offset or another position, with the old signature.
    fc.nat({ max: 1_000_000 }).map((served) => {
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      return `${Buffer.from(JSON.stringify({ ...decoded, served })).toString('base64url')}.${signature}`;
    }),
    hostileString.filter((text) => text.length > 0 && text.length <= 5000),
  );
}

interface FramingCase {
  request: HttpRequest;
  /** Statuses allowed when the framing itself is at fault (any of the faults may be reported first); else the body's JSON-RPC answer. */
  expectation: { statuses: number[]; why: string } | { statuses?: undefined; message: unknown };
}

const CODINGS = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
} as const;

/** Requests at fault in their framing (method, path, headers, encoding, size, bytes) or carrying odd bodies. */
function httpFraming(): fc.Arbitrary<FramingCase> {
  const validPing = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
  const body = fc.oneof(
    { weight: 3, arbitrary: fc.constant(Buffer.from(validPing)) },
    {
      weight: 2,
      arbitrary: fc.constant(null).map(() =>
        Buffer.from(
          toJsonText({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'get_filter_options', arguments: {} },
          }),
        ),
      ),
    },
    {
      weight: 3,
      arbitrary: envelope(['get_filter_options', 'get_account_usage']).map((message) =>
        Buffer.from(toJsonText(message)),
      ),
    },
    {
      weight: 3,
      arbitrary: fc
        .oneof(
          fc.string({ unit: fuzzCharacter, maxLength: 60 }),
          fc.constantFrom(
            '{',
            '{"jsonrpc":"2.0",',
            "{'jsonrpc':'2.0'}",
            'NaN',
            '[1,]',
            `${validPing}}`,
            `${validPing} x`,
            `\ufeff${validPing}`,
            'null',
            '1',
            '"x"',
            '',
            '   ',
            '\u0000',
          ),
        )
        .map((text) => Buffer.from(text, 'utf8')),
    },
    // Bytes that are not UTF-8: inside a JSON string, and outside one.
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.uint8Array({ minLength: 1, maxLength: 8 }), fc.boolean())
        .map(([bytes, inString]) =>
          inString
            ? Buffer.concat([
                Buffer.from('{"jsonrpc":"2.0","id":"'),
                Buffer.from(bytes),
                Buffer.from('","method":"ping"}'),
              ])
            : Buffer.concat([Buffer.from(bytes), Buffer.from(validPing)]),
        ),
    },
    // Over the 1 MiB limit.
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1024 * 1024, max: 3 * 1024 * 1024 })
        .map((size) =>
          Buffer.from(
            `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"${'x'.repeat(size)}"}}}`,
          ),
        ),
    },
  );
  // Encoded right (or not at all) mostly; wrongly, or with a coding the server cannot read, now and then.
  const encoding = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom('none', 'identity', 'gzip', 'deflate', 'br', 'GZIP') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'gzip-claimed',
        'deflate-claimed',
        'br-claimed',
        'gzip-bomb',
        'compress',
        'zstd',
        'bogus',
        'x-gzip',
        'gzip, identity',
      ),
    },
  );
  /** Each header fault is rare, so that most cases reach the body. */
  const rarely = <T>(arbitrary: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
  return fc
    .record({
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant('POST') },
        fc.constantFrom('GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'),
      ),
      path: fc.oneof(
        { weight: 12, arbitrary: fc.constant('/mcp') },
        fc.constantFrom('/mcp?x=1', '/nope', '/mcp/extra', '/%ff'),
      ),
      contentType: fc.option(
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'application/json; charset=UTF-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/xml',
          '*/*',
          'application/json;;;',
          'garbage',
          'application/json; charset=latin1',
          'application/json; charset=bogus',
        ),
        { nil: undefined },
      ),
      accept: fc.option(
        fc.constantFrom(
          'application/json',
          '*/*',
          'text/event-stream',
          'text/html',
          'application/xml',
          '',
          'garbage/',
        ),
        { nil: undefined },
      ),
      protocolVersion: fc.oneof(
        fc.constant(undefined),
        fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS),
        rarely(fc.constantFrom('2024-11-05', '', 'latest', '2025-06-18 ')),
      ),
      origin: fc.oneof(
        fc.constant(undefined),
        fc.constant('own'),
        rarely(fc.constantFrom('http://evil.example', 'null')),
      ),
      encoding,
      body,
    })
    .map((framing) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${otherKey}` };
      if (framing.contentType !== undefined) headers['Content-Type'] = framing.contentType;
      if (framing.accept !== undefined) headers.Accept = framing.accept;
      if (framing.protocolVersion !== undefined) headers['MCP-Protocol-Version'] = framing.protocolVersion;
      if (framing.origin !== undefined)
        headers.Origin = framing.origin === 'own' ? server.baseUrl : framing.origin;
      const { bytes, contentEncoding, bodyFault } = encodeBody(framing.body, framing.encoding);
      if (contentEncoding !== undefined) headers['Content-Encoding'] = contentEncoding;
      const request: HttpRequest = { method: framing.method, path: framing.path, headers, body: bytes };
      const faults: Array<{ statuses: number[]; why: string }> = [];
      const onEndpoint = framing.path === '/mcp' || framing.path === '/mcp?x=1';
      if (!onEndpoint) faults.push({ statuses: [404, 400], why: 'no such path' });
      else if (framing.method !== 'POST') faults.push({ statuses: [405], why: 'POST only' });
      if (framing.origin !== undefined && framing.origin !== 'own')
        faults.push({ statuses: [403], why: 'foreign origin' });
      // HTTP drops the spaces around a header's value.
      if (
        framing.protocolVersion !== undefined &&
        !SUPPORTED_PROTOCOL_VERSIONS.includes(framing.protocolVersion.trim())
      ) {
        faults.push({ statuses: [400], why: 'unsupported MCP-Protocol-Version' });
      }
      if (onEndpoint && framing.method === 'POST') {
        const charset = /charset=([^;]*)/i.exec(framing.contentType ?? '')?.[1]?.toLowerCase();
        if (charset !== undefined && charset !== 'utf-8')
          faults.push({ statuses: [400, 415], why: `charset ${charset}` });
        if (bodyFault !== undefined) faults.push(bodyFault);
      }
      const expectation: FramingCase['expectation'] =
        faults.length > 0
          ? {
              statuses: [...new Set(faults.flatMap((fault) => fault.statuses))],
              why: faults.map((fault) => fault.why).join(', '),
            }
          : { message: decodeAsServer(framing.body) };
      return printable({ request, expectation }, () => `${describeRequest(request)} (${framing.encoding})`);
    })
    .filter(({ request }) => Object.values(request.headers).every(isSendableHeader));
}

/**
 * The bytes to send for `body` under `coding`, the Content-Encoding header, and the fault the
 * server must report when the body cannot be read. Body-level expectations for readable bodies
 * come from the JSON-RPC oracle; `undefined` for the message means "not JSON".
 */
function encodeBody(
  body: Buffer,
  coding: string,
): { bytes: Buffer; contentEncoding?: string; bodyFault?: { statuses: number[]; why: string } } {
  const tooLarge = body.length > 1024 * 1024 ? { statuses: [413], why: 'body over 1 MiB' } : undefined;
  const notJson =
    decodeAsServer(body) === undefined && body.length > 0 ? { statuses: [400], why: 'not JSON' } : undefined;
  const readable = tooLarge ?? notJson;
  switch (coding) {
    case 'none':
      return { bytes: body, ...(readable && { bodyFault: readable }) };
    case 'identity':
      return { bytes: body, contentEncoding: 'identity', ...(readable && { bodyFault: readable }) };
    case 'gzip':
    case 'deflate':
    case 'br':
      return {
        bytes: CODINGS[coding](body),
        contentEncoding: coding,
        ...(readable && { bodyFault: readable }),
      };
    case 'GZIP':
      return { bytes: gzipSync(body), contentEncoding: 'GZIP', ...(readable && { bodyFault: readable }) };
    case 'gzip-claimed':
    case 'deflate-claimed':
    case 'br-claimed':
      // Claimed but not applied: a malformed body.
      return {
        bytes: body,
        contentEncoding: coding.replace('-claimed', ''),
        bodyFault: { statuses: [400], why: `malformed ${coding}` },
      };
    case 'gzip-bomb':
      return {
        bytes: gzipBomb(),
        contentEncoding: 'gzip',
        bodyFault: { statuses: [413], why: 'inflates past 1 MiB' },
      };
    case 'x-gzip':
    case 'gzip, identity':
      // HTTP lets a server read these as gzip, or refuse them as unsupported.
      return {
        bytes: gzipSync(body),
        contentEncoding: coding,
        bodyFault: {
          statuses: [415, ...(readable?.statuses ?? [200, 202, 400])],
          why: `${coding}: unsupported or read as gzip`,
        },
      };
    default:
      return {
        bytes: body,
        contentEncoding: coding,
        bodyFault: { statuses: [415], why: `unsupported Content-Encoding ${coding}` },
      };
  }
}

let bomb: Buffer | undefined;
/** 64 MiB of spaces in about 64 KiB: the server must stop inflating at its limit. Made once, it takes a while. */
function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '));
  return bomb;
}

/** The message the server reads from these bytes (UTF-8, a leading BOM dropped), or `undefined` when they are not JSON. */
function decodeAsServer(body: Buffer): unknown {
  const text = body.toString('utf8').replace(/^\ufeff/, '');
  // An empty body is read as no message: an invalid request.
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
