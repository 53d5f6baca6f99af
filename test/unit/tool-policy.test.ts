import { describe, expect, it } from 'vitest';
import { tools } from '../../src/tools/registry.js';
import { TOOL_POLICY } from '../support/tool-policy.js';

describe('the tool catalog', () => {
  it("matches the table of every tool's scope, access and meter", () => {
    const catalog = Object.fromEntries(
      tools.map((tool) => [tool.name, { scope: tool.scope, access: tool.access, cost: tool.cost }]),
    );
    expect(catalog).toEqual(TOOL_POLICY);
  });
});
