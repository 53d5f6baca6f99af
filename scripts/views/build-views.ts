/**
 * Builds each MCP App view under `views/<name>/` (an `index.html` template, a `main.ts` entry and a
 * `styles.css`) into one self-contained document, `dist/views/<name>.html`, with its script and
 * styles inlined: hosts load a view into a sandbox that may fetch nothing, so it can have no other
 * file. The server reads these documents at start (src/mcp/view-resources.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCES = path.join(ROOT, 'views');
export const BUILT_VIEWS = path.join(ROOT, 'dist', 'views');

/** Hosts differ in what they accept; a megabyte keeps a view well inside every one we know. */
const MAX_VIEW_BYTES = 1024 * 1024;

/** Where the template takes the bundled script and styles. */
const SCRIPT_SLOT = '<!-- view script -->';
const STYLE_SLOT = '<!-- view styles -->';

export interface BuiltView {
  name: string;
  file: string;
  bytes: number;
  /** False when the file on disk already held this very document and was left alone. */
  written: boolean;
}

/**
 * Builds every view and writes those whose document changed. Building is quick (esbuild), and
 * comparing the result with the file on disk is exact where comparing times would not be (a
 * dependency upgraded, a branch switched), so "build when out of date" is simply this.
 */
export async function buildViews(): Promise<BuiltView[]> {
  const names = readdirSync(SOURCES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  mkdirSync(BUILT_VIEWS, { recursive: true });
  return Promise.all(names.map(buildView));
}

async function buildView(name: string): Promise<BuiltView> {
  const folder = path.join(SOURCES, name);
  const bundle = await build({
    entryPoints: [path.join(folder, 'main.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    tsconfig: path.join(SOURCES, 'tsconfig.json'),
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  // A script element ends at the first `</script`, and `<!--` changes how the rest is read; esbuild
  // escapes both inside strings, so finding one means the document would come out broken.
  if (/<\/script|<!--/i.test(script)) throw new Error(`views/${name}: the bundle holds </script or <!--`);
  const styles = readFileSync(path.join(folder, 'styles.css'), 'utf8');
  const html = fillSlots(readFileSync(path.join(folder, 'index.html'), 'utf8'), name, {
    [STYLE_SLOT]: `<style>\n${styles}</style>`,
    [SCRIPT_SLOT]: `<script>${script}</script>`,
  });
  const bytes = Buffer.byteLength(html);
  if (bytes > MAX_VIEW_BYTES) {
    throw new Error(`views/${name}: the document is ${bytes} bytes, over the ${MAX_VIEW_BYTES} allowed`);
  }
  const file = path.join(BUILT_VIEWS, `${name}.html`);
  if (readIfPresent(file) === html) return { name, file, bytes, written: false };
  // Written aside and renamed, so a server starting meanwhile reads the old document or the new one.
  const partial = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(partial, html);
  renameSync(partial, file);
  return { name, file, bytes, written: true };
}

/** The template with each slot replaced once; a template missing a slot is a mistake worth stopping on. */
function fillSlots(template: string, name: string, slots: Record<string, string>): string {
  return Object.entries(slots).reduce((html, [slot, content]) => {
    const at = html.indexOf(slot);
    if (at < 0) throw new Error(`views/${name}/index.html has no ${slot}`);
    return html.slice(0, at) + content + html.slice(at + slot.length);
  }, template);
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
