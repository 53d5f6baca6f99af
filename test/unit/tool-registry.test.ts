import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SCOPES } from '../../src/auth/scopes.js';
import { QUOTA_KEYS } from '../../src/plans.js';
import { tools } from '../../src/tools/registry.js';

/** Tools that change state; every other tool must be read-only (CONTRACT §2). */
const WRITING_TOOLS = ['enrich_lead'];
/** Tools that need no scope at all. */
const UNSCOPED_TOOLS = ['get_filter_options'];
/** Tools that answer every account, paid or not, so a user can see why access is refused (CONTRACT §3). */
const ALWAYS_ANSWERING_TOOLS = ['get_account_usage', 'get_filter_options'];

describe('the tool registry', () => {
  it('has unique snake_case names', () => {
    const names = tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  describe.each(tools.map((tool) => [tool.name, tool] as const))('%s', (name, tool) => {
    it('has a title and a description of reasonable length', () => {
      expect(tool.title.trim().length).toBeGreaterThan(5);
      expect(tool.description.length).toBeGreaterThanOrEqual(80);
      expect(tool.description.length).toBeLessThanOrEqual(1200);
    });

    it('states all four annotations: read-only unless it writes, never open-world', () => {
      expect(tool.annotations).toEqual({
        readOnlyHint: !WRITING_TOOLS.includes(name),
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
    });

    it('declares its scope, null only where none is needed', () => {
      if (UNSCOPED_TOOLS.includes(name)) expect(tool.scope).toBeNull();
      else expect(SCOPES).toContain(tool.scope);
    });

    it('needs a paid plan unless it must answer every account', () => {
      expect(tool.access).toBe(ALWAYS_ANSWERING_TOOLS.includes(name) ? 'always' : 'paid');
    });

    it('declares what it meters, if anything', () => {
      if (tool.meters !== null) expect(QUOTA_KEYS).toContain(tool.meters);
    });

    it('has strict object input and object output schemas', () => {
      const input = z.toJSONSchema(tool.inputSchema, { io: 'input' });
      const output = z.toJSONSchema(tool.outputSchema, { io: 'output' });
      expect(input).toMatchObject({ type: 'object', additionalProperties: false });
      expect(output).toMatchObject({ type: 'object' });
      expect(Object.keys(output.properties ?? {}).length).toBeGreaterThan(0);
    });
  });
});
