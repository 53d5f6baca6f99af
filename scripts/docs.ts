/**
 * `npm run docs`: writes docs/tools.md, the tools' API reference, from the tool catalog, and the
 * README's client setups from scripts/clients/setups.ts. Run it after changing a tool or a setup;
 * test/unit/tools-reference.test.ts and test/unit/client-setups.test.ts fail while the committed
 * files differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { withClientSetupsSection } from './clients/setups.js';
import { renderToolsReference, TOOLS_REFERENCE_FILE } from './docs/tools-reference.js';

writeFileSync(new URL(`../${TOOLS_REFERENCE_FILE}`, import.meta.url), renderToolsReference());
console.log(`Wrote ${TOOLS_REFERENCE_FILE}.`);

const readme = new URL('../README.md', import.meta.url);
writeFileSync(readme, withClientSetupsSection(readFileSync(readme, 'utf8')));
console.log('Wrote the client setups in README.md.');
