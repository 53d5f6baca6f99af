/**
 * How each kind of client connects, written once: `npm run demo` prints these setups for its server
 * and key, the README lists them for placeholder values (`npm run docs` writes that section), and
 * test/integration/client-setups.test.ts runs each one exactly as printed against a test server.
 */

import { MODERN_REVISION } from '../../src/mcp/server.js';

/** Packages the printed commands run through `npx`, pinned so npm cannot pick another version. */
export const PINNED_PACKAGES = {
  // 2.x needs Node 22.19 or later by its `engines`; pinned exactly, npm installs it on older Node
  // too (with a warning), where it runs. Left unpinned on Node 20, npm falls back to the Inspector
  // 0.15 line, which has no --header.
  inspector: { name: '@modelcontextprotocol/inspector', version: '2.12.0' },
  mcpRemote: { name: 'mcp-remote', version: '0.15.1' },
  // The Python SDK, as examples/python/requirements.txt pins it.
  pythonMcp: { name: 'mcp', version: '2.3.0' },
} as const;

const pinned = (key: keyof typeof PINNED_PACKAGES) =>
  `${PINNED_PACKAGES[key].name}@${PINNED_PACKAGES[key].version}`;

/** The server a setup points at. */
export interface SetupTarget {
  /** The MCP endpoint, `{BASE_URL}/mcp`. */
  mcpUrl: string;
  apiKey: string;
}

/** The placeholders the README shows. */
const README_TARGET: SetupTarget = { mcpUrl: 'http://localhost:3000/mcp', apiKey: 'YOUR_API_KEY' };

/** The server name the JSON configurations register. */
export const SERVER_NAME = 'hiring-leads';

/** What a person copies: shell commands, a JSON configuration, Python code or the URL alone. */
export type SetupText =
  | { kind: 'shell'; text: string }
  | { kind: 'json'; text: string }
  | { kind: 'python'; text: string }
  | { kind: 'url'; text: string };

export interface ClientSetup {
  id: 'connector' | 'curl' | 'inspector' | 'mcp-remote' | 'cursor' | 'vscode' | 'python';
  /** The clients it is for. */
  title: string;
  /** What is added, in a few words, for the README's table. */
  summary: string;
  /** Which MCP revision it speaks to this server, as checked here (docs/protocol.md, "Protocol revisions"). */
  revision: string;
  /** Where it goes and what it needs, one sentence or two. */
  where: string;
  /** What to copy, in order (a Python setup: the install command, then the code). */
  parts: SetupText[];
}

/**
 * A shell command from its arguments, each line of `lines` printed on a line of its own (joined
 * with backslash-newline). Every argument is quoted for a POSIX shell where it needs it, so the
 * text runs as given.
 */
function shellCommand(...lines: string[][]): SetupText {
  return { kind: 'shell', text: lines.map((line) => line.map(shellQuote).join(' ')).join(' \\\n  ') };
}

function shellQuote(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", `'\\''`)}'`;
}

const json = (value: unknown): SetupText => ({ kind: 'json', text: JSON.stringify(value, null, 2) });

/** Python string literals for the URL and key: JSON's escapes are Python's for these characters. */
const pythonString = (value: string) => JSON.stringify(value);

export function clientSetups({ mcpUrl, apiKey }: SetupTarget): ClientSetup[] {
  const bearer = `Bearer ${apiKey}`;
  const searchCall = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'search_leads', arguments: { title: 'engineer', location: 'London', page_size: 3 } },
  };
  const inspector = ['npx', '-y', pinned('inspector'), '--cli', mcpUrl, '--transport', 'http'];
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return [
    {
      id: 'connector',
      title: 'Claude.ai, ChatGPT and other clients that sign in (OAuth)',
      summary: 'the URL alone; you sign in in the browser',
      revision: 'whichever its MCP client negotiates: both eras are served',
      where:
        'Add a custom connector with the server URL alone, no key: the client opens a browser where you sign in and approve its access. Claude.ai and ChatGPT connect from their own servers, so they need the server reachable over https at its `BASE_URL`; Cursor, VS Code and `mcp-remote` (below, for Claude Desktop) sign in the same way, on localhost too.',
      parts: [{ kind: 'url', text: mcpUrl }],
    },
    {
      id: 'curl',
      title: 'curl (any HTTP client)',
      summary: 'one command per call',
      revision: `either: 2025-11-25 as the first command, ${MODERN_REVISION} as the second`,
      where: `One JSON-RPC request per call, no session and no \`initialize\` needed ([docs/protocol.md](docs/protocol.md)). The first is the 2025 form; the second speaks revision ${MODERN_REVISION}: the same call with its \`_meta\` envelope, and headers repeating the revision, the method and the tool.`,
      parts: [
        shellCommand(
          ['curl', '-s', mcpUrl],
          ['-H', `Authorization: ${bearer}`],
          ['-H', 'Content-Type: application/json', '-H', 'Accept: application/json'],
          ['-d', JSON.stringify(searchCall)],
        ),
        shellCommand(
          ['curl', '-s', mcpUrl],
          ['-H', `Authorization: ${bearer}`],
          ['-H', 'Content-Type: application/json', '-H', 'Accept: application/json'],
          [
            '-H',
            `MCP-Protocol-Version: ${MODERN_REVISION}`,
            '-H',
            'Mcp-Method: tools/call',
            '-H',
            'Mcp-Name: search_leads',
          ],
          ['-d', JSON.stringify({ ...searchCall, params: { ...searchCall.params, _meta: envelope } })],
        ),
      ],
    },
    {
      id: 'inspector',
      title: 'MCP Inspector (command line)',
      summary: '`npx` commands',
      revision: '2025-11-25',
      where: `Lists the tools, then calls one. Version ${PINNED_PACKAGES.inspector.version} is pinned: unpinned, npm on Node 20 picks an old Inspector without \`--header\`.`,
      parts: [
        shellCommand(inspector, ['--header', `Authorization: ${bearer}`, '--method', 'tools/list']),
        shellCommand(inspector, [
          '--header',
          `Authorization: ${bearer}`,
          '--method',
          'tools/call',
          '--tool-name',
          'search_leads',
          '--tool-arg',
          'title=engineer',
          '--tool-arg',
          'page_size=3',
        ]),
      ],
    },
    {
      id: 'mcp-remote',
      title: 'Claude Desktop and other clients that run only local (stdio) servers, through `mcp-remote`',
      summary: "a local server in the client's JSON",
      revision: "the 2025 revisions: it relays the app's own `initialize`",
      where:
        "`claude_desktop_config.json`. `mcp-remote` puts the environment's `AUTH_HEADER` into the header, so the key stays out of the arguments (and no space in an argument trips Claude Desktop on Windows). Leave out `--header` and `env` to sign in through the browser instead.",
      parts: [
        json({
          mcpServers: {
            [SERVER_NAME]: {
              command: 'npx',
              args: [
                '-y',
                pinned('mcpRemote'),
                mcpUrl,
                '--transport',
                'http-only',
                '--header',
                // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote replaces ${AUTH_HEADER} from its environment
                'Authorization:${AUTH_HEADER}',
              ],
              env: { AUTH_HEADER: bearer },
            },
          },
        }),
      ],
    },
    {
      id: 'cursor',
      title: 'Cursor',
      summary: 'the URL and an `Authorization` header in `mcp.json`',
      revision: 'not checked here (the app cannot run on this machine); both eras are served',
      where: '`.cursor/mcp.json` in a project, or `~/.cursor/mcp.json` for every project.',
      parts: [json({ mcpServers: { [SERVER_NAME]: { url: mcpUrl, headers: { Authorization: bearer } } } })],
    },
    {
      id: 'vscode',
      title: 'VS Code',
      summary: 'the URL and an `Authorization` header in `mcp.json`',
      revision: 'not checked here (the app cannot run on this machine); both eras are served',
      where: '`.vscode/mcp.json` (keep a file holding a key out of version control).',
      parts: [
        json({
          servers: { [SERVER_NAME]: { type: 'http', url: mcpUrl, headers: { Authorization: bearer } } },
        }),
      ],
    },
    {
      id: 'python',
      title: 'Python, with the `mcp` SDK',
      summary: 'a short script',
      revision: `${MODERN_REVISION}: it asks with \`server/discover\` first`,
      where: 'More scripts, with plain `requests` too, and a chart: [docs/analysts.md](docs/analysts.md).',
      parts: [
        shellCommand([
          'pip',
          'install',
          `${PINNED_PACKAGES.pythonMcp.name}==${PINNED_PACKAGES.pythonMcp.version}`,
        ]),
        {
          kind: 'python',
          text: [
            'import asyncio',
            '',
            'import httpx2',
            'from mcp import Client',
            'from mcp.client.streamable_http import streamable_http_client',
            '',
            `URL = ${pythonString(mcpUrl)}`,
            `API_KEY = ${pythonString(apiKey)}`,
            '',
            '',
            'async def main():',
            '    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {API_KEY}"}) as http:',
            '        async with Client(streamable_http_client(URL, http_client=http)) as client:',
            '            tools = await client.list_tools()',
            '            print([tool.name for tool in tools.tools])',
            '            usage = await client.call_tool("get_account_usage", {})',
            '            print(usage.structured_content)',
            '',
            '',
            'asyncio.run(main())',
          ].join('\n'),
        },
      ],
    },
  ];
}

/** The setups as `npm run demo` prints them on a terminal. */
export function renderSetupsForTerminal(setups: readonly ClientSetup[]): string {
  return setups
    .map((setup) =>
      [
        `${plainText(setup.title)} (speaks ${plainText(setup.revision)}): ${plainText(setup.where)}`,
        ...setup.parts.map((part) => part.text),
      ].join('\n\n'),
    )
    .join('\n\n\n');
}

/** Markdown links and code marks read as plain text on a terminal. */
function plainText(markdown: string): string {
  return markdown.replaceAll(/\[([^\]]+)\]\([^)]+\)/g, '$1').replaceAll('`', '');
}

const FENCE: Record<SetupText['kind'], string> = { shell: 'sh', json: 'json', python: 'python', url: 'text' };

const README_START = '<!-- client-setups: generated by `npm run docs` from scripts/clients/setups.ts -->';
const README_END = '<!-- /client-setups -->';

/** The README's "Connecting a client" body: a table of the clients, then each setup. */
function renderReadmeSection(setups: readonly ClientSetup[]): string {
  const table = [
    '| client | what you add | protocol revision |',
    '|---|---|---|',
    ...setups.map((setup) => `| ${setup.title} | ${setup.summary} | ${setup.revision} |`),
  ];
  const sections = setups.map((setup) =>
    [
      `**${setup.title}.** ${setup.where}`,
      ...setup.parts.map((part) => `\`\`\`${FENCE[part.kind]}\n${part.text}\n\`\`\``),
    ].join('\n\n'),
  );
  return [README_START, table.join('\n'), ...sections, README_END].join('\n\n');
}

/**
 * `readme` with its client-setups section rendered afresh for the placeholders. Throws when the
 * markers are missing, so the section cannot silently disappear.
 */
export function withClientSetupsSection(readme: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start === -1 || end < start) {
    throw new Error(`README.md has no client-setups section (the markers ${README_START} and ${README_END})`);
  }
  return (
    readme.slice(0, start) +
    renderReadmeSection(clientSetups(README_TARGET)) +
    readme.slice(end + README_END.length)
  );
}
