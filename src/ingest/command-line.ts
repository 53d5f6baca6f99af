import { parseArgs } from 'node:util';
import type { z } from 'zod';

/**
 * The flags of a command (`npm run ingest`, `npm run seed`): `--name value` or `--switch`, each
 * flag a key of `schema` (the switches listed in `switches`), checked by the schema; `--help`
 * asks for the usage. A bad command line is a message for the user, never a stack trace.
 */
export type CommandLine<T> = { flags: T } | { exitCode: 0 | 2; text: string };

export function readCommandLine<T>(
  argv: readonly string[],
  schema: z.ZodType<T> & { shape: Record<string, unknown> },
  switches: readonly string[],
  usage: string,
): CommandLine<T> {
  const options: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' } };
  for (const name of Object.keys(schema.shape))
    options[name] = { type: switches.includes(name) ? 'boolean' : 'string' };
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args: [...argv], options, strict: true }));
  } catch (error) {
    return { exitCode: 2, text: `${error instanceof Error ? error.message : String(error)}\n\n${usage}` };
  }
  if (values.help) return { exitCode: 0, text: usage };
  const { help: _help, ...flags } = values;
  const parsed = schema.safeParse(flags);
  if (!parsed.success) {
    return {
      exitCode: 2,
      text: `${parsed.error.issues.map((issue) => issue.message).join('\n')}\n\n${usage}`,
    };
  }
  return { flags: parsed.data };
}
