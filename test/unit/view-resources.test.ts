import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProtocolError } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import { createToolCatalog } from '../../src/mcp/catalog.js';
import { loadViewResources } from '../../src/mcp/view-resources.js';
import type { ToolView } from '../../src/tools/define-tool.js';
import { tools } from '../../src/tools/registry.js';

/** The views as resources, over documents of a temporary folder (the served ones: market-insights-view.test.ts). */

const folder = mkdtempSync(path.join(os.tmpdir(), 'views-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const folderUrl = pathToFileURL(`${folder}/`);

const chart: ToolView = {
  uri: 'ui://chart/view.html',
  name: 'chart',
  title: 'A chart',
  description: 'Draws the result.',
};

describe('loadViewResources', () => {
  it('serves each view from the document read at start, with the MCP Apps type and metadata', () => {
    writeFileSync(path.join(folder, 'chart.html'), '<!doctype html><p>first</p>');
    const resources = loadViewResources([chart], folderUrl);
    // Read once: a later build does not change what this server serves.
    writeFileSync(path.join(folder, 'chart.html'), '<!doctype html><p>second</p>');
    const meta = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };
    expect(resources.listing).toEqual([
      {
        uri: chart.uri,
        name: 'chart',
        title: 'A chart',
        description: 'Draws the result.',
        mimeType: 'text/html;profile=mcp-app',
        _meta: meta,
      },
    ]);
    expect(resources.read(chart.uri)).toEqual({
      contents: [
        {
          uri: chart.uri,
          mimeType: 'text/html;profile=mcp-app',
          text: '<!doctype html><p>first</p>',
          _meta: meta,
        },
      ],
    });
  });

  it('refuses an unknown URI as invalid params, naming it', () => {
    writeFileSync(path.join(folder, 'chart.html'), '<!doctype html>');
    const resources = loadViewResources([chart], folderUrl);
    const read = () => resources.read('ui://chart/other.html');
    expect(read).toThrow(ProtocolError);
    expect(read).toThrow(
      expect.objectContaining({
        code: -32602,
        message: expect.stringContaining('"ui://chart/other.html"'),
        data: { uri: 'ui://chart/other.html' },
      }),
    );
  });

  it('stops with what to run when a view was never built', () => {
    const missing = { ...chart, name: 'never-built' };
    expect(() => loadViewResources([missing], folderUrl)).toThrow(
      `The view ui://chart/view.html has no built document at ${folder}/never-built.html. Build the views with \`npm run build:view\` (\`npm run build\` includes it).`,
    );
  });
});

describe('the catalog’s views', () => {
  it('lists each view once, from the tools that point at it', () => {
    const catalog = createToolCatalog(tools);
    expect(catalog.views.map((view) => view.uri)).toEqual(['ui://market-insights/view.html']);
    const [insights] = tools.filter((tool) => tool.view !== undefined);
    const twice = createToolCatalog([...tools, { ...(insights as (typeof tools)[number]), name: 'another' }]);
    expect(twice.views).toEqual(catalog.views);
  });
});
