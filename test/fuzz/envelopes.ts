import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { tools } from '../../src/tools/registry.js';
import { fuzzCharacter, hostileJson, hostileKey, hostileNumber, smallHostileJson } from './arbitraries.js';
import { type FuzzJson, NumberLiteral, objectOf } from './json-text.js';

/**
 * Random and hostile JSON-RPC envelopes, and what the server must answer to each. The answer
 * follows from JSON-RPC 2.0 and MCP alone (the MCP schema, through the SDK's own validators, says
 * which params a method takes), so the oracle does not repeat the server's code.
 */

export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** The request methods the server answers, with the MCP schema of each request. */
const SERVED_METHODS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
} as const;

/** The resources the server offers: its tools' views. */
const RESOURCE_URIS: readonly string[] = tools.flatMap((tool) => (tool.view ? [tool.view.uri] : []));

export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'];

const OTHER_METHODS = [
  'notifications/initialized',
  'notifications/cancelled',
  'resources/subscribe',
  'prompts/list',
  'logging/setLevel',
  'completion/complete',
  'tasks/list',
  'tasks/get',
  'sampling/createMessage',
  'tools/List',
  'tools/call ',
  '',
  'rpc.discover',
  '__proto__',
  'constructor',
];

const requestId = fc.oneof(
  fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
  fc.constantFrom(0, 1, 2 ** 53 - 1),
  fc.string({ unit: fuzzCharacter, maxLength: 20 }),
  // Integers written in other forms are still integers once parsed.
  fc.constantFrom(new NumberLiteral('-0'), new NumberLiteral('7.0'), new NumberLiteral('1e3')),
);

const malformedId = fc.oneof<fc.Arbitrary<FuzzJson>[]>(
  fc.constant(null),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  hostileNumber,
  smallHostileJson,
);

const meta = fc.oneof<fc.Arbitrary<FuzzJson>[]>(
  fc.constant({}),
  fc.record({ progressToken: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })) }),
  smallHostileJson,
);

/** Present about one time in four: most generated params should be valid, so that the methods run. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

/** Mostly the right value, sometimes a hostile one. */
function mostly<T>(
  valid: fc.Arbitrary<T>,
  hostile: fc.Arbitrary<FuzzJson>,
): fc.Arbitrary<T | FuzzJson | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 1, arbitrary: hostile },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

function paramsFor(toolNames: readonly string[]): Record<string, fc.Arbitrary<FuzzJson>> {
  const withoutUndefined = (params: Record<string, FuzzJson | undefined>) =>
    objectOf(Object.entries(params).filter((entry): entry is [string, FuzzJson] => entry[1] !== undefined));
  const listParams = fc
    .record({
      cursor: sometimes(fc.oneof(fc.string({ maxLength: 10 }), smallHostileJson)),
      _meta: sometimes(meta),
    })
    .map(withoutUndefined);
  return {
    initialize: fc
      .record({
        protocolVersion: mostly(
          fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS, '2024-11-05', '1999-01-01'),
          smallHostileJson,
        ),
        capabilities: mostly(fc.constant<FuzzJson>({}), smallHostileJson),
        clientInfo: mostly(
          fc.record({ name: fc.string({ maxLength: 10 }), version: fc.string({ maxLength: 5 }) }),
          smallHostileJson,
        ),
        _meta: sometimes(meta),
      })
      .map(withoutUndefined),
    ping: fc.record({ _meta: sometimes(meta) }).map(withoutUndefined),
    'tools/list': listParams,
    'tools/call': fc
      .record({
        name: mostly(fc.constantFrom(...toolNames), smallHostileJson),
        arguments: mostly(fc.constant<FuzzJson>({}), hostileJson),
        _meta: sometimes(meta),
        // Task augmentation, which this server does not offer: MCP says to ignore it then.
        task: sometimes(fc.oneof(fc.constant<FuzzJson>({}), fc.record({ ttl: fc.nat() }), smallHostileJson)),
      })
      .map(withoutUndefined),
    'resources/list': listParams,
    'resources/templates/list': listParams,
    'resources/read': fc
      .record({
        uri: mostly(
          fc.constantFrom(...RESOURCE_URIS, 'ui://market-insights/other.html', 'file:///etc/passwd', ''),
          smallHostileJson,
        ),
        _meta: sometimes(meta),
      })
      .map(withoutUndefined),
  };
}

/** A JSON-RPC message, well-formed or not, for any method: members missing, of the wrong type, or extra. */
export function envelope(toolNames: readonly string[]): fc.Arbitrary<FuzzJson> {
  const servedParams = paramsFor(toolNames);
  const methodAndParams = fc.oneof(
    {
      weight: 10,
      arbitrary: fc
        .constantFrom(...(Object.keys(SERVED_METHODS) as Array<keyof typeof SERVED_METHODS>))
        .chain((method) =>
          fc.tuple(
            fc.constant<FuzzJson | undefined>(method),
            fc.oneof(
              { weight: 5, arbitrary: servedParams[method] as fc.Arbitrary<FuzzJson | undefined> },
              { weight: 2, arbitrary: hostileJson },
              { weight: 1, arbitrary: fc.constant(undefined) },
            ),
          ),
        ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(
        fc.oneof(fc.constantFrom(...OTHER_METHODS), fc.string({ unit: fuzzCharacter, maxLength: 20 })),
        fc.option(hostileJson, { nil: undefined }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.oneof(fc.constant(undefined), smallHostileJson),
        fc.option(hostileJson, { nil: undefined }),
      ),
    },
  );
  return fc
    .record({
      jsonrpc: fc.oneof(
        { weight: 20, arbitrary: fc.constant<FuzzJson | undefined>('2.0') },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.oneof(fc.constantFrom('1.0', '2', '2.0 ', ''), smallHostileJson) },
      ),
      id: fc.oneof(
        { weight: 12, arbitrary: requestId as fc.Arbitrary<FuzzJson | undefined> },
        { weight: 2, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: malformedId },
      ),
      methodAndParams,
      extra: fc.oneof(
        { weight: 7, arbitrary: fc.constant<Array<[string, FuzzJson]>>([]) },
        {
          weight: 1,
          arbitrary: fc.array(fc.tuple(hostileKey, smallHostileJson), { minLength: 1, maxLength: 2 }),
        },
      ),
      order: fc.nat(),
    })
    .map(({ jsonrpc, id, methodAndParams: [method, params], extra, order }) => {
      const members: Array<[string, FuzzJson | undefined]> = [
        ['jsonrpc', jsonrpc],
        ['id', id],
        ['method', method],
        ['params', params],
      ];
      // Member order must not matter; extra members come anywhere, and never replace the four above.
      const rotated = [...members.slice(order % 4), ...members.slice(0, order % 4)];
      const entries = [
        ...rotated,
        ...extra.filter(([key]) => !['jsonrpc', 'id', 'method', 'params'].includes(key)),
      ].filter((entry): entry is [string, FuzzJson] => entry[1] !== undefined);
      return objectOf(entries);
    });
}

/** What the server must answer to a message, decided from the message as the server parsed it. */
export type ExpectedAnswer =
  /** A JSON-RPC error with this code, with one of these HTTP statuses; `id` is echoed when `echoId`. */
  | { kind: 'error'; codes: number[]; statuses: number[]; echoId?: string | number }
  /** A JSON-RPC result for this id (for `tools/call`: a tool result). */
  | { kind: 'result'; id: string | number; method: keyof typeof SERVED_METHODS }
  /** A notification: 202 with no body, or, if it is malformed, possibly a 400 (HTTP has no other way to say so). */
  | { kind: 'notification'; malformed: boolean };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The answers the server may give to a message (any one of them), decided from the message as the server parsed it. */
export function expectedAnswers(message: unknown, toolNames: readonly string[]): ExpectedAnswer[] {
  const answer = expectedAnswer(message, toolNames);
  // JSON-RPC lists a request's members but does not say whether others make it invalid: both
  // ignoring them and refusing the request are right, anything else is not.
  const hasOtherMembers =
    isObject(message) &&
    Object.keys(message).some((key) => !['jsonrpc', 'id', 'method', 'params'].includes(key));
  return hasOtherMembers
    ? [answer, { kind: 'error', codes: [JSON_RPC.invalidRequest], statuses: [400] }]
    : [answer];
}

function expectedAnswer(message: unknown, toolNames: readonly string[]): ExpectedAnswer {
  const invalidRequest: ExpectedAnswer = { kind: 'error', codes: [JSON_RPC.invalidRequest], statuses: [400] };
  if (!isObject(message)) return invalidRequest;
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string') return invalidRequest;
  const hasParams = Object.hasOwn(message, 'params');
  const paramsMalformed = hasParams && !isObject(message.params);
  if (!Object.hasOwn(message, 'id')) {
    return { kind: 'notification', malformed: !JSONRPCNotificationSchema.safeParse(message).success };
  }
  const id = message.id;
  // MCP: an id is a string or an integer (JSON-RPC's null and fractions are not allowed); an
  // integer beyond 2^53 cannot be echoed exactly.
  if (!(typeof id === 'string' || Number.isSafeInteger(id))) return invalidRequest;
  const echoId = id as string | number;
  const method = message.method;
  if (!Object.hasOwn(SERVED_METHODS, method)) {
    // Params that are not a structured value make the request itself invalid in JSON-RPC's terms.
    return paramsMalformed
      ? {
          kind: 'error',
          codes: [JSON_RPC.invalidRequest, JSON_RPC.methodNotFound, JSON_RPC.invalidParams],
          statuses: [200, 400],
        }
      : JSONRPCRequestSchema.safeParse(message).success
        ? { kind: 'error', codes: [JSON_RPC.methodNotFound], statuses: [200], echoId }
        : // Params that break MCP's shape for every request (`_meta` not an object): refusing them
          // as such is as right as not knowing the method.
          {
            kind: 'error',
            codes: [JSON_RPC.methodNotFound, JSON_RPC.invalidParams],
            statuses: [200],
            echoId,
          };
  }
  const servedMethod = method as keyof typeof SERVED_METHODS;
  const invalidParams: ExpectedAnswer = {
    kind: 'error',
    codes: [JSON_RPC.invalidParams],
    statuses: [200, 400],
    echoId,
  };
  if (paramsMalformed) return invalidParams;
  const schema = SERVED_METHODS[servedMethod];
  if (!schema.safeParse({ method, ...(hasParams && { params: message.params }) }).success)
    return invalidParams;
  if (servedMethod === 'tools/call') {
    const name = (message.params as { name: string }).name;
    if (!toolNames.includes(name)) return invalidParams;
  }
  if (servedMethod === 'resources/read') {
    const uri = (message.params as { uri: string }).uri;
    if (!RESOURCE_URIS.includes(uri)) return invalidParams;
  }
  return { kind: 'result', id: echoId, method: servedMethod };
}
