import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClientSetup,
  clientSetups,
  PINNED_PACKAGES,
  SERVER_NAME,
  type SetupText,
} from '../../scripts/clients/setups.js';
import { examplesPython, PYTHON_REQUIREMENTS } from '../../scripts/python-env.js';
import { tools } from '../../src/tools/registry.js';
import { discover } from '../support/oauth-flow.js';
import { startOAuthTestServer } from '../support/oauth-server.js';
import { runPython } from '../support/python.js';
import type { Json } from '../support/seeded-data.js';
import { createAccountWithKey, type TestServer } from '../support/test-server.js';

const run = promisify(execFile);
const TOOL_NAMES = tools.map((tool) => tool.name);

/**
 * A shell command exactly as printed, run by `sh` from the repository (where `npx` finds the pinned
 * packages among the dev dependencies before it would download them).
 */
async function runPrinted(part: SetupText): Promise<string> {
  expect(part.kind).toBe('shell');
  const { stdout } = await run('sh', ['-c', part.text], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    timeout: 170_000,
    maxBuffer: 10 * 1024 * 1024,
  });
  return stdout;
}

/** An SDK client over a connected transport: the tools it lists and the credential it is seen with. */
async function toolsAndCredential(client: Client): Promise<{ names: string[]; credential: Json }> {
  const { tools: listed } = await client.listTools();
  const usage = await client.callTool({ name: 'get_account_usage', arguments: {} });
  await client.close();
  return { names: listed.map((tool) => tool.name), credential: (usage.structuredContent as Json).credential };
}

const newClient = () => new Client({ name: 'client-setups-test', version: '1.0.0' });

/**
 * Every setup `npm run demo` prints and the README lists (scripts/clients/setups.ts), made for a test
 * server's URL and a real API key, and run as a person copying it would: shell commands through
 * `sh`, JSON configurations parsed and started or connected the way their clients do, the Python
 * code by Python with the pinned `mcp`.
 */
describe('client setups, run as printed', () => {
  let server: TestServer;
  let key: string;
  let setups: ClientSetup[];
  const setup = (id: ClientSetup['id']): ClientSetup => {
    const found = setups.find((candidate) => candidate.id === id);
    if (found === undefined) throw new Error(`no setup ${id}`);
    return found;
  };
  const onlyPart = (id: ClientSetup['id']): SetupText => {
    const [part, ...more] = setup(id).parts;
    expect(more).toEqual([]);
    if (part === undefined) throw new Error(`setup ${id} has nothing to copy`);
    return part;
  };
  const jsonConfig = (id: ClientSetup['id']): Json => {
    const part = onlyPart(id);
    expect(part.kind).toBe('json');
    return JSON.parse(part.text);
  };

  beforeAll(async () => {
    // Its BASE_URL is the address it listens on, as the demo's is: the URL printed is the one served.
    server = await startOAuthTestServer();
    ({ key } = await createAccountWithKey(server.services, { plan: 'growth' }));
    setups = clientSetups({ mcpUrl: server.url, apiKey: key });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the URL alone leads a client that signs in to the authorization server', async () => {
    // What a connector does first with the URL; the sign-in that follows, from the URL alone, is
    // run in a browser by oauth-mcp-remote.test.ts and oauth-sdk-client.test.ts.
    const part = onlyPart('connector');
    expect(part).toEqual({ kind: 'url', text: server.url });
    const found = await discover(part.text);
    expect(found.resource.resource).toBe(part.text);
    expect(found.server.registration_endpoint).toBeDefined();
    expect(found.server.code_challenge_methods_supported).toContain('S256');
  });

  it('curl: both commands call search_leads, the second in revision 2026-07-28', async () => {
    const [legacy, modern] = setup('curl').parts as [SetupText, SetupText];
    for (const part of [legacy, modern]) {
      const answer = JSON.parse(await runPrinted(part));
      expect(answer.result.isError).toBeUndefined();
      expect(answer.result.structuredContent).toMatchObject({ returned: 3, leads: expect.any(Array) });
    }
    expect(JSON.parse(await runPrinted(modern)).result).toMatchObject({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'hiring-leads' } },
    });
  });

  it('MCP Inspector: the pinned command lists the tools, then calls one', async () => {
    const [list, call] = setup('inspector').parts as [SetupText, SetupText];
    expect(list.text).toContain(`${PINNED_PACKAGES.inspector.name}@${PINNED_PACKAGES.inspector.version} `);
    const listed = JSON.parse(await runPrinted(list));
    expect(listed.tools.map((tool: Json) => tool.name)).toEqual(TOOL_NAMES);
    const called = JSON.parse(await runPrinted(call));
    expect(called.isError).toBeFalsy();
    expect(called.structuredContent).toMatchObject({ returned: 3 });
  }, 180_000);

  it('mcp-remote: the configuration starts a stdio server that speaks MCP with the key, kept out of its arguments', async () => {
    const config = jsonConfig('mcp-remote');
    expect(Object.keys(config.mcpServers)).toEqual([SERVER_NAME]);
    const { command, args, env } = config.mcpServers[SERVER_NAME];
    expect(args).toContain(`${PINNED_PACKAGES.mcpRemote.name}@${PINNED_PACKAGES.mcpRemote.version}`);
    expect(JSON.stringify(args)).not.toContain(key);

    // Started as Claude Desktop starts it: the command and arguments as given, the configured
    // environment over a default one. Its own HOME keeps mcp-remote's state out of the user's.
    const home = await mkdtemp(path.join(tmpdir(), 'hl-setups-mcp-remote-'));
    try {
      const transport = new StdioClientTransport({
        command,
        args,
        env: { ...env, HOME: home, npm_config_cache: path.join(homedir(), '.npm') },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const client = newClient();
      await client.connect(transport).catch((error: unknown) => {
        throw new Error(`mcp-remote failed: ${String(error)}\n${stderr}`);
      });
      const { names, credential } = await toolsAndCredential(client);
      expect(names).toEqual(TOOL_NAMES);
      expect(credential.type).toBe('api_key');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it.each([
    ['cursor', (config: Json) => config.mcpServers, { url: expect.any(String), headers: expect.any(Object) }],
    [
      'vscode',
      (config: Json) => config.servers,
      { type: 'http', url: expect.any(String), headers: expect.any(Object) },
    ],
  ] as const)('%s: the URL and headers of the configuration connect', async (id, servers, shape) => {
    const config = jsonConfig(id);
    expect(Object.keys(servers(config))).toEqual([SERVER_NAME]);
    const entry = servers(config)[SERVER_NAME];
    expect(entry).toStrictEqual(shape);

    const client = newClient();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }),
    );
    const { names, credential } = await toolsAndCredential(client);
    expect(names).toEqual(TOOL_NAMES);
    expect(credential.type).toBe('api_key');
  });

  it('Python: the snippet runs with the mcp the install command pins', async () => {
    const [install, code] = setup('python').parts as [SetupText, SetupText];
    // The environment the examples use has exactly what the printed install command asks for.
    const pin = /^pip install (\S+==\S+)$/.exec(install.text)?.[1];
    expect((await readFile(PYTHON_REQUIREMENTS, 'utf8')).split('\n')).toContain(pin);

    const dir = await mkdtemp(path.join(tmpdir(), 'hl-setups-python-'));
    try {
      const file = path.join(dir, 'hiring_leads_snippet.py');
      await writeFile(file, code.text);
      const result = await runPython(await examplesPython(), file, []);
      expect(result.code, result.stderr).toBe(0);
      const [names, usage] = result.stdout.split('\n');
      expect(names).toBe(`[${TOOL_NAMES.map((name) => `'${name}'`).join(', ')}]`);
      expect(usage).toContain(`'credential': {'type': 'api_key'`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
