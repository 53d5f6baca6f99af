import { testBackends } from './backends.js';
import { seedOutcome } from './seed-command.js';

/**
 * Setup file of the integration projects (vitest.config.ts): the global setup seeds while the
 * workers start and load their modules, so each file first waits for the seed to have ended, and
 * fails with its error when it failed.
 */
const { error } = await seedOutcome(testBackends().seedOutcomeFile);
if (error !== undefined) throw new Error(`The test data could not be seeded: ${error}`);
