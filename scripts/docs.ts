/**
 * `npm run docs`: writes docs/tools.md, the tools' API reference, from the tool catalog. Run it
 * after changing a tool; test/unit/tools-reference.test.ts fails while the committed file differs.
 */
import { writeFileSync } from 'node:fs';
import { renderToolsReference, TOOLS_REFERENCE_FILE } from './docs/tools-reference.js';

writeFileSync(new URL(`../${TOOLS_REFERENCE_FILE}`, import.meta.url), renderToolsReference());
console.log(`Wrote ${TOOLS_REFERENCE_FILE}.`);
