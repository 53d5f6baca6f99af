import { pathToFileURL } from 'node:url';
import { config } from '../config.js';
import { DomainError } from '../errors.js';
import { connectMongo, disconnectMongo } from '../stores/mongo.js';
import { FlagReader, parseArgs, UsageError } from './args.js';
import { type AdminStores, COMMANDS, openAdminStores } from './commands.js';

export interface AdminIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Runs one admin command; returns the exit status (0 ok, 1 failed, 2 bad command line). */
export async function runAdmin(
  argv: readonly string[],
  stores: AdminStores,
  io: AdminIo,
  now = new Date(),
): Promise<number> {
  let json = argv.includes('--json');
  try {
    const args = parseArgs(argv);
    json = args.json;
    const name = args.words.join(' ');
    const command = COMMANDS[name];
    if (command === undefined) {
      throw new UsageError(
        `${name ? `Unknown command "${name}".` : 'No command given.'} Commands:\n  ${Object.values(COMMANDS)
          .map((known) => known.usage)
          .join('\n  ')}`,
      );
    }
    const output = await command.run(new FlagReader(args.flags, command.usage), stores, now);
    io.stdout(json ? JSON.stringify(output.result) : readable(output.result, output.note));
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof DomainError)) throw error;
    const code = error instanceof UsageError ? 'usage' : error.code;
    io.stderr(json ? JSON.stringify({ error: { code, message: error.message } }) : `error: ${error.message}`);
    return error instanceof UsageError ? 2 : 1;
  }
}

function readable(result: Record<string, unknown>, note: string | undefined): string {
  const lines = Object.entries(result).map(([key, value]) => {
    const shown =
      value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : value;
    return `${key}: ${shown}`;
  });
  return [...lines, ...(note === undefined ? [] : ['', note])].join('\n');
}

async function main(): Promise<void> {
  const settings = config();
  const mongo = await connectMongo(settings);
  const write = (stream: NodeJS.WriteStream) => (text: string) => stream.write(`${text}\n`);
  try {
    const stores = await openAdminStores(mongo.db, {
      signingKeysConfigured: settings.OAUTH_JWKS !== undefined,
    });
    process.exitCode = await runAdmin(process.argv.slice(2), stores, {
      stdout: write(process.stdout),
      stderr: write(process.stderr),
    });
  } catch (error) {
    const message = error instanceof DomainError ? error.message : String(error);
    process.stderr.write(`error: ${message}\n`);
    process.exitCode = 1;
  } finally {
    await disconnectMongo(mongo);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
