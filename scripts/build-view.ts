/**
 * `npm run build:view`: builds the MCP App views under views/ into dist/views/ (see
 * scripts/views/build-views.ts); part of `npm run build`. The demo, `npm run start:stack`, the
 * benchmark and the tests build them the same way before they start a server.
 */
import path from 'node:path';
import { buildViews } from './views/build-views.js';

for (const view of await buildViews()) {
  const where = path.relative(process.cwd(), view.file);
  const size = `${(view.bytes / 1024).toFixed(0)} KiB`;
  console.log(view.written ? `Wrote ${where} (${size}).` : `${where} is up to date (${size}).`);
}
