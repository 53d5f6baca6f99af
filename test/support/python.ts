import { spawn } from 'node:child_process';

export interface PythonRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `python script args...` with only the environment given (plus PATH and HOME), as a user
 * would from a shell. `onStderrLine` sees each line of stderr as it comes, while the script runs.
 */
export function runPython(
  python: string,
  script: string,
  args: string[],
  options: { env?: Record<string, string>; onStderrLine?: (line: string) => void; timeoutMs?: number } = {},
): Promise<PythonRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [script, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        // No __pycache__ left among the examples by a test run.
        PYTHONDONTWRITEBYTECODE: '1',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let partialLine = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const lines = (partialLine + chunk.toString()).split('\n');
      partialLine = lines.pop() ?? '';
      for (const line of lines) options.onStderrLine?.(line);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
