/**
 * Sums up the V8 CPU profiles that `npm run bench -- --profile DIR` leaves in DIR: where the server
 * processes spent their CPU, by package (or our own file) and by function, as shares of the busy
 * time (idle excluded). The first `--skip` seconds of each profile (start-up: compiling modules,
 * connecting) are left out, so what remains is the calls. Usage:
 * `npm run bench:profile -- DIR [--top N] [--skip SECONDS]`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, skip: { type: 'string', default: '10' } },
});
const dir = positionals[0];
if (dir === undefined) throw new Error('usage: npm run bench:profile -- DIR [--top N]');
const top = Number(values.top);
const skipMicroseconds = Number(values.skip) * 1e6;

/** What a frame belongs to: an npm package, one of our files, a Node.js internal, or V8 itself. */
function ownerOf(url: string, functionName: string): string {
  if (url === '') return `(${functionName || 'native'})`;
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1] as string;
  if (url.startsWith('node:')) return 'node internals';
  const ours = /\/((?:src|dist|bench|scripts)\/.*)$/.exec(url);
  return ours ? (ours[1] as string) : url;
}

const byOwner = new Map<string, number>();
const byFunction = new Map<string, number>();
let busy = 0;
const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
for (const file of files) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  let at = profile.startTime;
  profile.samples.forEach((nodeId, index) => {
    at += profile.timeDeltas[index] ?? 0;
    const node = nodes.get(nodeId);
    if (node === undefined || at - profile.startTime < skipMicroseconds) return;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') return;
    busy += 1;
    const owner = ownerOf(url, functionName);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + 1);
    const name = `${functionName || '(anonymous)'} ${owner}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + 1);
  });
}

const share = (hits: number) => `${((100 * hits) / busy).toFixed(1).padStart(5)} %`;
const print = (title: string, table: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, hits] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${share(hits)}  ${name}`);
  }
};
console.log(`${files.length} profile(s), ${busy} busy samples (idle excluded)`);
print('self time by package or file', byOwner);
print('self time by function', byFunction);
