/**
 * Imported first, before anything that builds zod schemas (the ext-apps and MCP SDK packages do as
 * they load). Each object schema asks, as it is built, whether `new Function` works, to compile a
 * faster parser; under a host's default policy that question is itself refused and reported as a
 * violation. With zod's compiled parsers off, it is never asked. (`App` turns them off too, but only
 * when constructed, after those schemas exist.)
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
