import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBrowser, useBrowser } from '../support/browser.js';
import { callToolRaw } from '../support/mcp-client.js';
import { MockHost } from '../support/mock-host.js';
import { connectSeededClient, type Json, SEEDED_NOW, startSeededServer } from '../support/seeded-data.js';
import { createAccountWithKey, type TestServer } from '../support/test-server.js';

/**
 * The market-insights view as a person sees it in an MCP Apps host: its document read from the
 * server, shown by a mock host page in Chromium under the specification's default policy, with
 * the host's side of the view protocol played here and its tool calls forwarded to the real
 * server over the seeded data. `VIEW_SCREENSHOTS=1` also writes the screenshots docs/analysts.md
 * shows (docs/images/market-insights-light.png and -dark.png).
 */

const VIEW_URI = 'ui://market-insights/view.html';

/** Host variables as hosts send them: light-dark() pairs, resolved by the theme the host sets. */
const HOST_STYLES = {
  variables: {
    '--color-text-primary': 'light-dark(#141413, #f5f4ee)',
    '--color-text-secondary': 'light-dark(#5e5d59, #b7b5a9)',
    '--color-background-primary': 'light-dark(#ffffff, #262624)',
    '--color-border-secondary': 'light-dark(#e8e6dc, #3e3e38)',
    '--font-sans': 'system-ui, sans-serif',
  },
};

let server: TestServer;
let key: string;
let viewHtml: string;

beforeAll(async () => {
  server = await startSeededServer();
  const connected = await connectSeededClient(server);
  key = connected.key;
  const read = await connected.client.readResource({ uri: VIEW_URI });
  viewHtml = String((read.contents[0] as { text?: string }).text);
  await connected.client.close();
});

afterAll(async () => {
  await server?.close();
});

describeWithBrowser('the market-insights view in a host', () => {
  const browser = useBrowser();

  /**
   * A host showing the view for one `get_market_insights` call made with `token`: the handshake,
   * then the call's arguments and result, as a host sends them once the assistant's call returns.
   */
  async function showInHost(args: Record<string, unknown>, token = key) {
    const page = await browser.newPage();
    const host = await MockHost.open(page, viewHtml, (params) =>
      callToolRaw(server.url, token, params.name, params.arguments ?? {}),
    );
    const initialize = await host.next('ui/initialize');
    await host.respond(initialize.id as number, {
      protocolVersion: initialize.params.protocolVersion,
      hostInfo: { name: 'mock-host', version: '1.0.0' },
      hostCapabilities: { serverTools: {} },
      hostContext: {
        theme: 'light',
        styles: HOST_STYLES,
        locale: 'en-GB',
        timeZone: 'UTC',
        displayMode: 'inline',
        containerDimensions: { width: 640, maxHeight: 600 },
      },
    });
    await host.next('ui/notifications/initialized');
    const result = await callToolRaw(server.url, token, 'get_market_insights', args);
    await host.notify('ui/notifications/tool-input', { arguments: args });
    await host.notify('ui/notifications/tool-result', result);
    return { page, host, result: result.structuredContent as Json };
  }

  const tableRows = (host: MockHost) => host.view.locator('#table tbody tr');
  const headerCells = (host: MockHost) => host.view.locator('#table thead th');

  /** The chart's pixels as an image, to tell one drawing from another. */
  const chartImage = (host: MockHost) =>
    host.view.locator('#chart').evaluate((canvas: { toDataURL(): string }) => canvas.toDataURL());

  /** How many of the chart's pixels are painted at all: a chart that drew nothing has none. */
  const paintedPixels = (host: MockHost) =>
    host.view.locator('#chart').evaluate(
      (canvas: {
        width: number;
        height: number;
        getContext(kind: '2d'): {
          getImageData(x: number, y: number, w: number, h: number): { data: number[] };
        };
      }) => {
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let painted = 0;
        for (let alpha = 3; alpha < data.length; alpha += 4) if (data[alpha] !== 0) painted++;
        return painted;
      },
    );

  /** How tall the view said it was, report by report. */
  const reportedHeights = (host: MockHost) =>
    host.received
      .filter((message) => message.method === 'ui/notifications/size-changed')
      .map((message) => message.params.height as number);

  /** What every test ends with: no error of any kind in the page, and never more than 500 px asked for. */
  function expectWellBehaved(host: MockHost): void {
    expect(host.problems).toEqual([]);
    expect(reportedHeights(host).length).toBeGreaterThan(0);
    expect(Math.max(...reportedHeights(host))).toBeLessThanOrEqual(500);
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    if (!process.env.VIEW_SCREENSHOTS) return;
    mkdirSync('docs/images', { recursive: true });
    await page.locator('#view').screenshot({ path: `docs/images/market-insights-${name}.png` });
  }

  it('shows every row in a table and draws the chart', async () => {
    const { page, host, result } = await showInHost({
      group_by: 'experience_level',
      breakdown_by: 'work_type',
    });
    await expect.poll(() => tableRows(host).count()).toBe(result.rows.length);
    expect(result.rows.length).toBeGreaterThan(1);
    const firstColumn = await host.view.locator('#table tbody th').allTextContents();
    expect(firstColumn).toEqual(result.rows.map((row: Json) => row.label));
    expect(await headerCells(host).allTextContents()).toEqual([
      'Experience level',
      'Roles',
      'Share',
      'By work type',
    ]);
    await expect.poll(() => paintedPixels(host)).toBeGreaterThan(1000);
    await expect
      .poll(() => host.view.locator('#title').textContent())
      .toBe('Open roles by experience level, split by work type');
    await screenshot(page, 'light');
    expectWellBehaved(host);
  });

  it('regroups through the host: one more tools/call, a different chart and table', async () => {
    const { host, result } = await showInHost({
      group_by: 'work_type',
      filters: { location: 'Germany' },
    });
    await expect.poll(() => tableRows(host).count()).toBe(result.rows.length);
    await expect.poll(() => paintedPixels(host)).toBeGreaterThan(1000);
    const before = await chartImage(host);
    const callsBefore = host.received.filter((message) => message.method === 'tools/call').length;

    await host.view.locator('select[name="group_by"]').selectOption('experience_level');
    const call = await host.next('tools/call');
    expect(host.received.filter((message) => message.method === 'tools/call')).toHaveLength(callsBefore + 1);
    // Only the grouping changed: the assistant's filters are kept.
    expect(call.params).toMatchObject({
      name: 'get_market_insights',
      arguments: { group_by: 'experience_level', filters: { location: 'Germany' } },
    });
    await expect.poll(() => headerCells(host).first().textContent()).toBe('Experience level');
    const expected = await callToolRaw(server.url, key, 'get_market_insights', call.params.arguments);
    const labels = (expected.structuredContent as Json).rows.map((row: Json) => row.label);
    await expect.poll(() => host.view.locator('#table tbody th').allTextContents()).toEqual(labels);
    await expect.poll(() => chartImage(host)).not.toBe(before);
    // The regroup was a real, metered call: the quota shown went down by one.
    await expect
      .poll(() => host.view.locator('#quota').textContent())
      .toContain(`${result.quota.remaining - 1} of`);

    await host.view.locator('select[name="metric"]').selectOption('salary');
    await host.next('tools/call');
    await expect.poll(() => headerCells(host).allTextContents()).toContain('Median');
    expectWellBehaved(host);
  });

  it('shows a used-up quota in plain words and keeps the figures it had', async () => {
    const limited = await createAccountWithKey(server.services, { plan: 'growth', callsPerMinute: 100_000 });
    await server.services.accounts.update(
      limited.account._id,
      { quota_overrides: { insight_queries: 1 } },
      SEEDED_NOW,
    );
    // The assistant's call takes the last query; the person's regroup finds none left.
    const { host, result } = await showInHost({ group_by: 'work_type' }, limited.key);
    expect(result.quota.remaining).toBe(0);
    await expect.poll(() => tableRows(host).count()).toBe(result.rows.length);

    await host.view.locator('select[name="group_by"]').selectOption('country');
    await host.next('tools/call');
    const status = host.view.locator('#status');
    await expect
      .poll(() => status.textContent())
      .toMatch(/^Today's market insight queries are used up\. More are available from /);
    expect(await status.getAttribute('class')).toContain('problem');
    // The chart and table still show the work types, and the control shows them again.
    expect(await headerCells(host).first().textContent()).toBe('Work type');
    expect(await host.view.locator('select[name="group_by"]').inputValue()).toBe('work_type');
    expectWellBehaved(host);
  });

  it('follows the host theme and draws again when it changes', async () => {
    const { page, host } = await showInHost({
      group_by: 'experience_level',
      metric: 'salary',
      currency: 'EUR',
    });
    await expect.poll(() => paintedPixels(host)).toBeGreaterThan(1000);
    const titleColour = () =>
      host.view
        .locator('#title')
        .evaluate(
          (title: { ownerDocument: { defaultView: { getComputedStyle(of: unknown): { color: string } } } }) =>
            title.ownerDocument.defaultView.getComputedStyle(title).color,
        );
    expect(await titleColour()).toBe('rgb(20, 20, 19)');
    const light = await chartImage(host);

    await page.evaluate("document.body.style.background = '#262624'");
    await host.notify('ui/notifications/host-context-changed', { theme: 'dark' });
    await expect.poll(titleColour).toBe('rgb(245, 244, 238)');
    await expect.poll(() => chartImage(host)).not.toBe(light);
    await screenshot(page, 'dark');
    expectWellBehaved(host);
  });

  it('draws trends over time and salary bands, with the change per period', async () => {
    const { host, result } = await showInHost({ group_by: 'posted_week', limit: 8 });
    await expect.poll(() => tableRows(host).count()).toBe(result.rows.length);
    expect(await headerCells(host).last().textContent()).toBe('Change');
    await expect.poll(() => paintedPixels(host)).toBeGreaterThan(1000);
    const before = await chartImage(host);

    await host.view.locator('select[name="metric"]').selectOption('salary');
    await host.next('tools/call');
    await expect.poll(() => headerCells(host).allTextContents()).toContain('Median');
    await expect.poll(() => chartImage(host)).not.toBe(before);
    expectWellBehaved(host);
  });

  it('says so when nothing matches, and shows the notes', async () => {
    const { host, result } = await showInHost({ group_by: 'city', filters: { location: 'Narnia' } });
    expect(result.rows).toEqual([]);
    expect(result.notes.length).toBeGreaterThan(0);
    await expect
      .poll(() => host.view.locator('#status').textContent())
      .toBe('No open roles match these filters.');
    expect(await host.view.locator('#notes li').allTextContents()).toEqual(result.notes);
    expect(await host.view.locator('.chart-frame').isHidden()).toBe(true);
    expectWellBehaved(host);
  });

  it('reports its size to the host, never over 500 px tall, even with 50 groups', async () => {
    const { host, result } = await showInHost({
      group_by: 'skill',
      breakdown_by: 'experience_level',
      limit: 50,
    });
    await expect.poll(() => tableRows(host).count()).toBe(result.rows.length);
    expect(result.rows.length).toBe(50);
    // The last report comes once the figures are laid out: taller than the empty view was.
    await expect.poll(() => reportedHeights(host).at(-1)).toBeGreaterThan(300);
    expectWellBehaved(host);
  });
});
