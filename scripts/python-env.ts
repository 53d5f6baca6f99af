/**
 * `npm run python:env`: the virtual environment the Python examples run in (examples/python,
 * docs/analysts.md), made if missing, and its `python` printed. The tests that run the examples
 * use the same one; `.ci/run` makes it before the suite, with the other installs.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Python examples, and the requirements they pin. */
export const PYTHON_EXAMPLES_DIR = path.resolve('examples/python');
export const PYTHON_REQUIREMENTS = path.join(PYTHON_EXAMPLES_DIR, 'requirements.txt');

/** Virtual environments live in the ignored `.cache/`, one per version of the requirements. */
const CACHE_DIR = path.resolve('.cache/python');
const READY_MARK = 'installed';

/**
 * The `python` of a virtual environment with examples/python/requirements.txt installed: made
 * (python3 -m venv, pip install) the first time, then reused while the file is unchanged, since it
 * is named by a hash of the file. Built under a temporary name and renamed when complete, so an
 * interrupted install is never taken for a finished one.
 */
export async function examplesPython(): Promise<string> {
  const requirements = await readFile(PYTHON_REQUIREMENTS);
  const hash = createHash('sha256').update(requirements).digest('hex').slice(0, 16);
  const venv = path.join(CACHE_DIR, `venv-${hash}`);
  const python = path.join(venv, 'bin', 'python');
  if (existsSync(path.join(venv, READY_MARK))) return python;

  await mkdir(CACHE_DIR, { recursive: true });
  const building = `${venv}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  try {
    await run('python3', ['-m', 'venv', building]);
    await run(
      path.join(building, 'bin', 'python'),
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', PYTHON_REQUIREMENTS],
      { timeout: 600_000 },
    );
  } catch (error) {
    const output = error as { stdout?: string; stderr?: string };
    await rm(building, { recursive: true, force: true });
    throw new Error(
      `could not make the Python environment: ${String(error)}\n${output.stdout}\n${output.stderr}`,
    );
  }
  await writeFile(path.join(building, READY_MARK), '');
  // A venv runs from its new place when started through its own bin/python, as here.
  await rename(building, venv).catch(async (error: unknown) => {
    // Another run finished first: use its environment.
    await rm(building, { recursive: true, force: true });
    if (!existsSync(path.join(venv, READY_MARK))) throw error;
  });
  return python;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await examplesPython());
}
