import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { config } from '../config.js';
import { importAshby } from '../feed/importers/ashby.js';
import type { Imported, ImportOptions } from '../feed/importers/common.js';
import { importGreenhouse } from '../feed/importers/greenhouse.js';
import { importLever } from '../feed/importers/lever.js';
import type { FeedKind } from '../feed/records.js';
import { createElasticsearchClient } from '../stores/elasticsearch.js';
import { readCommandLine } from './command-line.js';
import { ndjsonLines, numberedRecords, openFeed } from './lines.js';
import { type FeedInput, type IngestReport, ingest, type Problem } from './load.js';
import { Progress } from './progress.js';
import { rollupSummary } from './rollups.js';

/** `npm run ingest`: feed files (or a job board) into the indices. docs/feed.md is the reference. */

const USAGE = `Usage: npm run ingest -- [inputs] [options]

Loads feed records (NDJSON, one record a line, gzipped or not) into the indices: validates each,
derives what the service computes, writes in bulk, and prints a summary (docs/feed.md).

Inputs (at least one):
  --companies FILE     company records ("-" for standard input)
  --leads FILE         lead records
  --signals FILE       signal records
  --from BOARD         import a public job board instead of --leads: greenhouse, lever or ashby
  --board FILE|URL     the board's JSON (its API's answer), with --from
  --company NAME       with --from: the company the board belongs to, by name (no profile)
  --company-key KEY    with --from: the company record it belongs to, by key
  --close-expired      no input: only close the open roles whose expires_at has passed

Options:
  --mode MODE          upsert (default): change only the records given, in the live indices;
                       snapshot: the source's full listing, built in new indices and swapped in,
                       closing the source's roles it no longer lists
  --source NAME        the source of records that name none; required for a snapshot
                       (with --from: <board type>:<board name> by default)
  --dry-run            validate and count, change nothing
  --max-rejects N      fail (exit 1) once more than N records are rejected; a snapshot then
                       publishes nothing
  --rejects FILE       also write each rejected record and warning as a JSON line to FILE
  --prefix P           index prefix (default: INDEX_PREFIX, else "hl")
  --today YYYY-MM-DD   the day records are checked against (default: today, UTC)
  --help               show this help

Exit status: 0 the run completed (rejected records are reported), 1 it failed or was stopped
(--max-rejects, documents Elasticsearch refused, an outage, another run writing to the
prefix: docs/feed.md, "One run at a time"), 2 bad command line.`;

const BOARDS = {
  greenhouse: { importer: importGreenhouse, namePattern: /\/boards\/([^/?#]+)/ },
  lever: { importer: importLever, namePattern: /\/postings\/([^/?#]+)/ },
  ashby: { importer: importAshby, namePattern: /\/job-board\/([^/?#]+)/ },
} as const;

/** The flags that take no value. */
const SWITCHES = ['close-expired', 'dry-run'];

const day = z.iso.date({ error: '--today must be a date written YYYY-MM-DD' });

const flagsSchema = z
  .object({
    companies: z.string().optional(),
    leads: z.string().optional(),
    signals: z.string().optional(),
    from: z
      .enum(['greenhouse', 'lever', 'ashby'], { error: '--from must be greenhouse, lever or ashby' })
      .optional(),
    board: z.string().optional(),
    company: z.string().optional(),
    'company-key': z.string().optional(),
    'close-expired': z.boolean().default(false),
    mode: z.enum(['upsert', 'snapshot'], { error: '--mode must be upsert or snapshot' }).default('upsert'),
    source: z.string().optional(),
    'dry-run': z.boolean().default(false),
    'max-rejects': z.coerce
      .number({ error: '--max-rejects must be a whole number' })
      .int('--max-rejects must be a whole number')
      .min(0, '--max-rejects cannot be negative')
      .optional(),
    rejects: z.string().optional(),
    prefix: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]*$/, '--prefix may hold lowercase letters, digits, - and _ only')
      .optional(),
    today: day.default(() => new Date().toISOString().slice(0, 10)),
  })
  .superRefine((flags, context) => {
    const problem = (message: string) => context.addIssue({ code: 'custom', message });
    const files = [flags.companies, flags.leads, flags.signals].filter((file) => file !== undefined);
    if (files.filter((file) => file === '-').length > 1)
      problem('only one input can be standard input ("-")');
    if (flags.from !== undefined) {
      if (flags.board === undefined) problem('--from needs --board FILE|URL');
      if (flags.leads !== undefined) problem('--from imports leads: leave out --leads');
      if ((flags.company === undefined) === (flags['company-key'] === undefined)) {
        problem("--from needs the board's company: --company NAME or --company-key KEY (one of them)");
      }
    } else if (
      flags.board !== undefined ||
      flags.company !== undefined ||
      flags['company-key'] !== undefined
    ) {
      problem('--board, --company and --company-key go with --from');
    }
    const hasInput = files.length > 0 || flags.from !== undefined;
    if (!hasInput && !flags['close-expired'])
      problem('give --leads, --companies, --signals or --from (or --close-expired)');
    if (hasInput && flags['close-expired']) problem('--close-expired takes no input');
  });

type Flags = z.infer<typeof flagsSchema>;

/** The board's JSON, from a file or its API's URL. */
async function readBoard(board: string): Promise<unknown> {
  if (/^https?:\/\//i.test(board)) {
    const response = await fetch(board, {
      signal: AbortSignal.timeout(60_000),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`${board} answered ${response.status} ${response.statusText}`);
    return response.json();
  }
  return JSON.parse(await readFile(board, 'utf8'));
}

/** The board's name: from its API URL, else the file's name without extensions. */
function boardName(from: keyof typeof BOARDS, board: string): string {
  const match = BOARDS[from].namePattern.exec(board);
  if (match?.[1]) return decodeURIComponent(match[1]);
  const file = path.basename(board);
  const dot = file.indexOf('.');
  return (dot < 0 ? file : file.slice(0, dot)) || from;
}

export interface IngestIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

function number(value: number): string {
  return value.toLocaleString('en-GB');
}

/** The summary table: one row per kind, the counts the run made. */
export function summaryTable(report: IngestReport): string {
  const header = [
    '',
    'read',
    'inserted',
    'updated',
    'unchanged',
    'closed',
    'reopened',
    'copied',
    'rejected',
    'warnings',
    'time',
    'records/s',
  ];
  const rows = report.kinds.map((kind) => [
    kind.kind,
    number(kind.read),
    number(kind.inserted),
    number(kind.updated),
    number(kind.unchanged),
    number(kind.closed),
    number(kind.reopened),
    number(kind.copied),
    number(kind.rejected),
    number(kind.warnings),
    `${kind.seconds.toFixed(1)} s`,
    number(kind.seconds > 0 ? Math.round(kind.read / kind.seconds) : kind.read),
  ]);
  const widths = header.map((_, column) =>
    Math.max(...[header, ...rows].map((row) => (row[column] as string).length)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[0] as number) : cell.padStart(widths[column] as number),
      )
      .join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** Runs one ingest command; returns the exit status. */
export async function runIngest(argv: readonly string[], io: IngestIo): Promise<number> {
  const commandLine = readCommandLine<Flags>(argv, flagsSchema, SWITCHES, USAGE);
  if (!('flags' in commandLine)) {
    (commandLine.exitCode === 0 ? io.stdout : io.stderr)(commandLine.text);
    return commandLine.exitCode;
  }
  const { flags } = commandLine;
  let source = flags.source;
  const inputs: Partial<Record<FeedKind, FeedInput>> = {};
  const open = async (file: string) => ndjsonLines(await openFeed(file));
  if (flags.companies !== undefined) inputs.companies = await open(flags.companies);
  if (flags.leads !== undefined) inputs.leads = await open(flags.leads);
  if (flags.signals !== undefined) inputs.signals = await open(flags.signals);
  if (flags.from !== undefined) {
    const board = flags.board as string;
    source ??= `${flags.from}:${boardName(flags.from, board)}`;
    const options: ImportOptions = {
      source,
      company:
        flags['company-key'] !== undefined
          ? { key: flags['company-key'] }
          : { name: flags.company as string },
      today: flags.today,
    };
    const imported: Imported = BOARDS[flags.from].importer(await readBoard(board), options);
    for (const skipped of imported.skipped) {
      io.stderr(`warning: ${flags.from} job ${skipped.job}: ${skipped.field}: ${skipped.reason}`);
    }
    io.stderr(`${flags.from}: ${number(imported.records.length)} records from ${board}`);
    inputs.leads = numberedRecords(imported.records);
  }
  if (flags['close-expired']) inputs.leads = [];
  if (flags.mode === 'snapshot' && source === undefined) {
    io.stderr(`a snapshot needs --source: the source whose full listing the files are\n\n${USAGE}`);
    return 2;
  }

  const settings = config();
  const prefix = flags.prefix ?? settings.INDEX_PREFIX;
  const client = createElasticsearchClient({
    ELASTICSEARCH_URL: settings.ELASTICSEARCH_URL,
    BACKEND_TIMEOUT_MS: 300_000,
  });
  let rejects: WriteStream | undefined;
  if (flags.rejects !== undefined) rejects = createWriteStream(flags.rejects);
  const report = (problem: Problem) => {
    const where = problem.line > 0 ? `${problem.kind} line ${problem.line}` : problem.kind;
    io.stderr(
      `${problem.severity === 'warning' ? 'warning: ' : ''}${where}: ${problem.field}: ${problem.reason}`,
    );
    rejects?.write(`${JSON.stringify(problem)}\n`);
  };
  // Ctrl-C stops at the next record; a snapshot then drops what it built and the live indices stay.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    io.stderr(
      `Ingesting into ${settings.ELASTICSEARCH_URL} prefix "${prefix}": ${flags.mode}${flags['dry-run'] ? ' (dry run)' : ''}` +
        `${source === undefined ? '' : `, source "${source}"`}`,
    );
    const result = await ingest(inputs, {
      client,
      prefix,
      mode: flags.mode,
      source,
      today: flags.today,
      dryRun: flags['dry-run'],
      maxRejects: flags['max-rejects'],
      onProblem: report,
      progress: (kind) => new Progress(kind, undefined),
      signal: stop.signal,
    });
    io.stdout(summaryTable(result));
    if (result.rollups) io.stdout(rollupSummary(result.rollups));
    const read = result.kinds.reduce((sum, kind) => sum + kind.read, 0);
    io.stdout(
      `${number(read)} records in ${result.seconds.toFixed(1)} s (${number(result.seconds > 0 ? Math.round(read / result.seconds) : read)} records/s)` +
        (flags.mode === 'snapshot'
          ? result.published
            ? '; the new indices are live'
            : '; nothing was published'
          : ''),
    );
    if (result.aborted !== null) {
      io.stderr(
        `ingest stopped: ${result.aborted}${flags.mode === 'snapshot' ? '; the live indices are unchanged' : ''}`,
      );
      return 1;
    }
    return result.kinds.some((kind) => kind.failed > 0) ? 1 : 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await client.close();
    await new Promise<void>((resolve) => (rejects ? rejects.end(resolve) : resolve()));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const write = (stream: NodeJS.WriteStream) => (text: string) => stream.write(`${text}\n`);
  runIngest(process.argv.slice(2), { stdout: write(process.stdout), stderr: write(process.stderr) }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`ingest failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
