/**
 * `npm run fuzz -- [--runs N] [--seed S] [--path P] [vitest options]`: the property-based fuzzing
 * of test/integration/fuzz.test.ts with N cases in all (2,000 under `npm test`). A failure prints
 * its seed and path; `--seed S --path P -t "<test name>"` replays exactly that case.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FUZZ_OPTIONS: Record<string, string> = {
  '--runs': 'FUZZ_RUNS',
  '--seed': 'FUZZ_SEED',
  '--path': 'FUZZ_PATH',
};

function parse(argv: string[]): { env: Record<string, string>; vitestArgs: string[] } {
  const env: Record<string, string> = {};
  const vitestArgs: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    const [name = '', inlineValue] = argument.split(/=(.*)/s);
    const variable = FUZZ_OPTIONS[name];
    if (variable === undefined) {
      vitestArgs.push(argument);
      continue;
    }
    const value = inlineValue ?? argv[++index];
    if (value === undefined) throw new Error(`${name} needs a value`);
    if (name !== '--path' && !/^-?\d+$/.test(value))
      throw new Error(`${name} must be a whole number, not "${value}"`);
    if (name === '--runs' && Number(value) < 1) throw new Error('--runs must be at least 1');
    env[variable] = value;
  }
  return { env, vitestArgs };
}

let options: ReturnType<typeof parse>;
try {
  options = parse(process.argv.slice(2));
} catch (error) {
  console.error(`npm run fuzz: ${(error as Error).message}`);
  process.exit(2);
}
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const child = spawn(
  process.execPath,
  [vitest, 'run', 'test/integration/fuzz.test.ts', ...options.vitestArgs],
  {
    stdio: 'inherit',
    env: { ...process.env, ...options.env },
  },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
