/** A command-line mistake: names the flag, exits with status 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedArgs {
  /** The words before the first flag, e.g. `["account", "create"]`. */
  words: string[];
  flags: Map<string, string>;
  json: boolean;
}

/** `--name value` pairs after the command words; `--json` alone. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const words: string[] = [];
  const flags = new Map<string, string>();
  let json = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--json') {
      json = true;
    } else if (arg.startsWith('--')) {
      const value = argv[index + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value.`);
      if (flags.has(arg)) throw new UsageError(`${arg} is given twice.`);
      flags.set(arg, value);
      index++;
    } else if (flags.size === 0) {
      words.push(arg);
    } else {
      throw new UsageError(`Unexpected "${arg}": every value must follow a --flag.`);
    }
  }
  return { words, flags, json };
}

/** Reads flags for one command, refusing any it does not know. */
export class FlagReader {
  private readonly known = new Set<string>();

  constructor(
    private readonly flags: Map<string, string>,
    private readonly usage: string,
  ) {}

  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined) throw new UsageError(`${name} is required. Usage: ${this.usage}`);
    return value;
  }

  optional(name: string): string | undefined {
    this.known.add(name);
    return this.flags.get(name);
  }

  /** Call after reading every flag the command takes. */
  rejectUnknown(): void {
    const unknown = [...this.flags.keys()].filter((name) => !this.known.has(name));
    if (unknown.length > 0) throw new UsageError(`Unknown flag ${unknown.join(', ')}. Usage: ${this.usage}`);
  }
}

export function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}; got "${value}".`);
  }
  return value as T;
}

export function wholeNumber(flag: string, value: string, minimum: number): number {
  if (!/^\d+$/.test(value) || Number(value) < minimum) {
    throw new UsageError(`${flag} must be a whole number of at least ${minimum}; got "${value}".`);
  }
  return Number(value);
}
