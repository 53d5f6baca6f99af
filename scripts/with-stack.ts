/**
 * `tsx scripts/with-stack.ts <command> [args...]`: runs the command with ELASTICSEARCH_URL and
 * MONGODB_URI pointing at the stack `npm run stack:up` started, unless the environment already sets
 * them. The server reads its settings from the environment only; this is how a development machine
 * hands it the local stack (`npm run start:stack`, `npm run admin:stack -- <command>`).
 */
import { spawn } from 'node:child_process';
import { useStackUrlsUnlessSet } from './stack/state.js';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  console.error('usage: tsx scripts/with-stack.ts <command> [args...]');
  process.exit(2);
}
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
