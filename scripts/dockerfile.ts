import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './stack/settings.js';

/**
 * The Dockerfile as data, for the tests that hold the image to its promises without a Docker
 * engine, and for the benchmark, which runs the server as the image does. It reads the subset of
 * the syntax our Dockerfile uses and refuses anything else, so a new construct fails loudly here
 * instead of being misread.
 */

export interface Instruction {
  /** Upper-case: FROM, COPY, RUN, ... */
  keyword: string;
  /** Leading `--name=value` options (`--from`, `--mount`, `--interval`, ...). */
  flags: Record<string, string>;
  /** The rest of the instruction, continuation lines joined. */
  rest: string;
}

export interface Stage {
  image: string;
  name: string | undefined;
  instructions: Instruction[];
}

export function readDockerfile(file = path.join(projectRoot, 'Dockerfile')): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of instructionsOf(readFileSync(file, 'utf8'))) {
    if (instruction.keyword === 'FROM') {
      const [image, as, name, ...extra] = instruction.rest.split(/\s+/);
      if (!image || (as !== undefined && (as.toUpperCase() !== 'AS' || !name)) || extra.length > 0) {
        throw new Error(`Dockerfile: cannot read FROM ${instruction.rest}`);
      }
      stages.push({ image, name, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`Dockerfile: ${instruction.keyword} before the first FROM`);
      stage.instructions.push(instruction);
    }
  }
  return stages;
}

function instructionsOf(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    const continued = line.endsWith('\\');
    pending += ` ${continued ? line.slice(0, -1) : line}`;
    if (continued) continue;
    const whole = pending.trim();
    pending = '';
    if (whole === '') continue;
    const [, keyword = '', afterKeyword = ''] = /^(\S+)\s*(.*)$/.exec(whole) ?? [];
    const flags: Record<string, string> = {};
    let rest = afterKeyword;
    for (let flag = /^--([a-z-]+)=(\S+)\s*/.exec(rest); flag; flag = /^--([a-z-]+)=(\S+)\s*/.exec(rest)) {
      flags[flag[1] as string] = flag[2] as string;
      rest = rest.slice(flag[0].length);
    }
    instructions.push({ keyword: keyword.toUpperCase(), flags, rest });
  }
  return instructions;
}

/** The one stage named `name`. */
function stageNamed(stages: Stage[], name: string): Stage {
  const stage = stages.find((candidate) => candidate.name === name);
  if (!stage) throw new Error(`Dockerfile: no stage named ${name}`);
  return stage;
}

/** The image the Dockerfile produces: its last stage. */
export function finalStage(stages: Stage[]): Stage {
  const stage = stages.at(-1);
  if (!stage) throw new Error('Dockerfile: no FROM');
  return stage;
}

export function instructions(stage: Stage, keyword: string): Instruction[] {
  return stage.instructions.filter((instruction) => instruction.keyword === keyword);
}

/** The stage's one `keyword` instruction (WORKDIR, USER, CMD, ...). */
export function onlyInstruction(stage: Stage, keyword: string): Instruction {
  const found = instructions(stage, keyword);
  if (found.length !== 1) throw new Error(`Dockerfile: expected one ${keyword}, found ${found.length}`);
  return found[0] as Instruction;
}

/** The arguments of an exec-form instruction (`CMD ["node", "dist/main.js"]`). */
export function execForm(text: string): string[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every((word) => typeof word === 'string')) {
    throw new Error(`Dockerfile: ${text} is not an exec form (a JSON array of strings)`);
  }
  return parsed;
}

/** The command of `HEALTHCHECK [options] CMD [...]`, in exec form. */
export function healthcheckCommand(stage: Stage): string[] {
  const [, command = ''] = /^CMD\s+(.*)$/.exec(onlyInstruction(stage, 'HEALTHCHECK').rest) ?? [];
  return execForm(command);
}

/** Every `ENV name=value` of the stage, in order. */
export function environmentOf(stage: Stage): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const { rest } of instructions(stage, 'ENV')) {
    for (const pair of rest.split(/\s+/)) {
      const [, name, value] = /^([A-Za-z_][A-Za-z0-9_]*)=([^"'\s]*)$/.exec(pair) ?? [];
      if (name === undefined || value === undefined) throw new Error(`Dockerfile: cannot read ENV ${rest}`);
      environment[name] = value;
    }
  }
  return environment;
}

/** One path the stage copies: from the build context, or from another stage's file system. */
export interface CopiedPath {
  /** The stage it comes from, or `undefined` for the build context. */
  fromStage: string | undefined;
  /** As written: relative to the context, or absolute in the other stage. */
  source: string;
  /** Relative to the stage's WORKDIR. */
  destination: string;
}

/** Every path the stage's COPY lines copy, in order. */
export function copiedPaths(stage: Stage): CopiedPath[] {
  return instructions(stage, 'COPY').flatMap((copy) => pathsCopiedBy(stage, copy));
}

/** The paths one COPY line of `stage` copies. */
export function pathsCopiedBy(stage: Stage, copy: Instruction): CopiedPath[] {
  const { flags, rest } = copy;
  if (rest.startsWith('[')) throw new Error(`Dockerfile: COPY in exec form is not read here: ${rest}`);
  const workdir = onlyInstruction(stage, 'WORKDIR').rest;
  const words = rest.split(/\s+/);
  const target = words.pop();
  if (target === undefined || words.length === 0) throw new Error(`Dockerfile: cannot read COPY ${rest}`);
  const destinationDirectory = path.posix.relative(workdir, path.posix.resolve(workdir, target));
  return words.map((source) => ({
    fromStage: flags.from,
    source,
    // `COPY a b ./` puts a and b in the folder; `COPY dist ./dist` names the copy.
    destination:
      words.length > 1 || target.endsWith('/')
        ? path.posix.join(destinationDirectory, path.posix.basename(source))
        : destinationDirectory,
  }));
}

/**
 * Where a copied path is in this checkout: the context is the checkout, and a build stage that
 * copies the whole context (`COPY . .`) into its WORKDIR mirrors the checkout there, its build
 * output included once `npm run build` has run here.
 */
export function checkoutPathOf(stages: Stage[], copied: CopiedPath): string {
  if (copied.fromStage === undefined) return path.join(projectRoot, copied.source);
  const stage = stageNamed(stages, copied.fromStage);
  const copiesTheCheckout = instructions(stage, 'COPY').some(
    ({ flags, rest }) => !flags.from && rest === '. .',
  );
  const workdir = onlyInstruction(stage, 'WORKDIR').rest;
  const inWorkdir = path.posix.relative(workdir, copied.source);
  if (!copiesTheCheckout || inWorkdir.startsWith('..') || path.posix.isAbsolute(inWorkdir)) {
    throw new Error(
      `Dockerfile: ${copied.source} of stage ${copied.fromStage} is not a file of the checkout`,
    );
  }
  return path.join(projectRoot, inWorkdir);
}
