import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QUOTA_UNIT_NAMES } from '../../src/plans.js';
import { tools } from '../../src/tools/registry.js';

/** Tools that change state; every other tool is read-only (docs/results-and-errors.md, "Annotations"). */
const WRITING_TOOLS = ['enrich_lead'];

// Each tool's scope, access and meter are pinned in tool-policy.test.ts.
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

    it('says in its description what it costs, as its cost declares', () => {
      expect(tool.description).toContain(
        tool.cost === null ? 'Not metered' : QUOTA_UNIT_NAMES[tool.cost.quota],
      );
    });

    it('states all four annotations: read-only unless it writes, never open-world', () => {
      expect(tool.annotations).toEqual({
        readOnlyHint: !WRITING_TOOLS.includes(name),
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
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
