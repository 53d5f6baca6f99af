/**
 * `tsx scripts/with-stack.ts [--compiled] <command> [args...]`: runs the command with
 * ELASTICSEARCH_URL and MONGODB_URI pointing at the stack `npm run stack:up` started, unless the
 * environment already sets them. The server reads its settings from the environment only; this is
 * how a development machine hands it the local stack (`npm run start:stack`, `npm run admin:stack
 * -- <command>`). `--compiled` first brings dist/ up to date with src/ (scripts/compiled.ts), for a
 * command that runs it (`npm run ingest`).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './compiled.js';
import { useStackUrlsUnlessSet } from './stack/state.js';

const given = process.argv.slice(2);
const compiled = given[0] === '--compiled';
const [command, ...args] = compiled ? given.slice(1) : given;
if (command === undefined) {
  console.error('usage: tsx scripts/with-stack.ts [--compiled] <command> [args...]');
  process.exit(2);
}
if (compiled) buildIfStale(fileURLToPath(new URL('..', import.meta.url)));
const env = { ...process.env };
useStackUrlsUnlessSet(env);
// glibc's allocator: two arenas, not one per thread (as the image), and blocks of 4 MiB or more
// always mapped apart, so a typed array grown and dropped gives its memory back (docs/performance.md,
// "Loading the feed"). Other C libraries ignore both.
env.MALLOC_ARENA_MAX ??= '2';
env.MALLOC_MMAP_THRESHOLD_ ??= String(4 * 1024 * 1024);
const child = spawn(command, args, { stdio: 'inherit', env });
// Ctrl-C reaches the child through the terminal; a plain kill of this process is passed on.
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
