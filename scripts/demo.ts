/**
 * `npm run demo`: the stack, the demo data (seeded once), a demo API key, a demo user per plan,
 * and the server, with how to sign in from an OAuth client and ready-to-paste API-key settings.
 * Ctrl-C stops the server; `npm run stack:down` stops the stack. The server's secret, the key and
 * the users' passwords are kept in files only the user can read, in the stack folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDemoAccounts } from '../seed/demo-accounts.js';
import { createDemoUsers, type DemoUser, newDemoPasswords, parseDemoPasswords } from '../seed/demo-users.js';
import { parseConfig } from '../src/config.js';
import { connectMongo } from '../src/stores/mongo.js';
import { clientSetups, renderSetupsForTerminal } from './clients/setups.js';
import { stackUp } from './stack/commands.js';
import { readOrCreatePrivateFile, writePrivateFile } from './stack/private-files.js';
import { stackSettings } from './stack/settings.js';
import { buildViews } from './views/build-views.js';

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

async function waitForServer(url: string, server: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error(`the server did not answer ${url} within a minute`);
}

interface DemoFiles {
  apiKey: string;
  serverSecret: string;
  userPasswords: string;
}

/** The demo users' passwords: made once per stack and kept in a private file, like the secret. */
function demoPasswords(file: string) {
  const kept = parseDemoPasswords(readOrCreatePrivateFile(file, () => JSON.stringify(newDemoPasswords())));
  if (kept !== undefined) return kept;
  // A file edited by hand into something else: start again with new passwords.
  const fresh = newDemoPasswords();
  writePrivateFile(file, `${JSON.stringify(fresh)}\n`);
  return fresh;
}

function signInInstructions(baseUrl: string, users: readonly DemoUser[], files: DemoFiles): string {
  const width = Math.max(...users.map((user) => user.email.length));
  return [
    `A client given the URL alone (${baseUrl}/mcp, no key) opens a browser where you sign in as one of`,
    ...users.map((user) => `  ${user.plan.padEnd(8)} ${user.email.padEnd(width)}  ${user.password}`),
    `  (also in ${files.userPasswords}, readable by you only). The free plan sees only get_account_usage and get_filter_options.`,
    `Your account's own pages (plan, credits, API keys, connected apps): ${baseUrl}/account`,
  ].join('\n');
}

function clientInstructions(mcpUrl: string, apiKey: string, files: DemoFiles): string {
  return [
    '',
    `hiring-leads MCP server: ${mcpUrl}`,
    `Demo API key (growth plan, all scopes): ${apiKey}`,
    `  also in ${files.apiKey}; the server's secret is in ${files.serverSecret} (both readable by you only)`,
    '',
    renderSetupsForTerminal(clientSetups({ mcpUrl, apiKey })),
  ].join('\n');
}

async function main(): Promise<void> {
  const stack = await stackUp();
  // stackUp has made the folder private to this user.
  const { stackDir } = stackSettings();
  const files: DemoFiles = {
    apiKey: path.join(stackDir, 'demo-api-key'),
    serverSecret: path.join(stackDir, 'server-secret'),
    userPasswords: path.join(stackDir, 'demo-user-passwords'),
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ELASTICSEARCH_URL: stack.elasticsearchUrl,
    MONGODB_URI: stack.mongodbUri,
    // One random secret per local stack, reused by every later run: tokens and cursors outlive a restart.
    SERVER_SECRET: readOrCreatePrivateFile(files.serverSecret, () => randomBytes(48).toString('base64')),
  };
  const settings = parseConfig(env);

  await run(process.execPath, ['--import', 'tsx', 'seed/cli.ts', '--if-empty', '--no-accounts'], env);

  const mongo = await connectMongo(settings);
  const [demo, users] = await (async () => {
    const accounts = await createDemoAccounts(mongo);
    return [accounts, await createDemoUsers(mongo, demoPasswords(files.userPasswords))] as const;
  })().finally(() => mongo.client.close());
  const growth = demo.find((account) => account.plan === 'growth') ?? demo[0];
  if (growth === undefined) throw new Error('no demo account was created');
  writePrivateFile(files.apiKey, `${growth.apiKey}\n`);

  // The server reads the market-insights view at start: built on a fresh clone, rebuilt after a change.
  await buildViews();
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { stdio: 'inherit', env });
  const stop = () => server.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await waitForServer(`http://127.0.0.1:${settings.PORT}/readyz`, server);
  console.log(clientInstructions(`${settings.BASE_URL}/mcp`, growth.apiKey, files));
  console.log(`\n${signInInstructions(settings.BASE_URL, users, files)}`);
  console.log('\nCtrl-C stops the server; `npm run stack:down` stops Elasticsearch and MongoDB.');
  server.on('exit', (code) => process.exit(code ?? 0));
}

main().catch((error: unknown) => {
  console.error(`demo: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
