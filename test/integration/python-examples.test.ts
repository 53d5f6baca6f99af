import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesPython, PYTHON_EXAMPLES_DIR } from '../../scripts/python-env.js';
import { tools } from '../../src/tools/registry.js';
import { type PythonRun, runPython } from '../support/python.js';
import { callOk, connectSeededClient, type Json, startSeededServer } from '../support/seeded-data.js';
import { createAccountWithKey, startTestServer, type TestServer } from '../support/test-server.js';

const script = (name: string) => path.join(PYTHON_EXAMPLES_DIR, name);

/** What the scripts are given: the server and the key, through the environment as documented. */
const connection = (server: TestServer, key: string) => ({
  HIRING_LEADS_URL: server.url,
  HIRING_LEADS_API_KEY: key,
});

function succeeded(run: PythonRun): string {
  expect(run.code, `the script failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
  return run.stdout;
}

/** The lead ids a script listed, in order: its lines that start with one. */
const listedLeadIds = (stdout: string) =>
  [...stdout.matchAll(/^ {2}(ld_[0-9A-Za-z]{10}) /gm)].map((match) => match[1]);

/** `pages` pages of a search through the SDK client, followed by cursor, as the expected answer. */
async function searchPages(client: Client, args: Record<string, unknown>, pages: number): Promise<Json[]> {
  const found: Json[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < pages && (page === 0 || cursor !== null); page++) {
    const result: Json = await callOk(client, 'search_leads', { ...args, ...(cursor && { cursor }) });
    found.push(result);
    cursor = result.next_cursor;
  }
  return found;
}

/**
 * examples/python, run with the pinned requirements in a virtual environment (made once, then
 * cached under `.cache/python`) against the seeded data, and checked against what the SDK client
 * gets for the same calls.
 */
describe('the Python examples', () => {
  let python: string;
  let server: TestServer;
  let key: string;
  let client: Client;
  let outputDir: string;

  beforeAll(async () => {
    python = await examplesPython();
    server = await startSeededServer();
    ({ key } = await createAccountWithKey(server.services, { plan: 'scale', callsPerMinute: 100_000 }));
    ({ client } = await connectSeededClient(server));
    outputDir = await mkdtemp(path.join(tmpdir(), 'hl-python-examples-'));
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    if (outputDir) await rm(outputDir, { recursive: true, force: true });
  });

  it('market_report.py (plain requests) lists salaries by city, then pages through the roles by cursor', async () => {
    const filters = { title: 'engineer', location: 'UK' };
    const stdout = succeeded(
      await runPython(
        python,
        script('market_report.py'),
        ['--title', 'engineer', '--location', 'UK', '--page-size', '5', '--max-pages', '3'],
        {
          env: connection(server, key),
        },
      ),
    );

    const insights = await callOk(client, 'get_market_insights', {
      group_by: 'city',
      metric: 'salary',
      limit: 5,
      filters,
    });
    const cityLines = [...stdout.matchAll(/^ {2}(.+?) +(\d+) roles {2}median GBP ([\d,]+) /gm)];
    expect(cityLines.map(([, label, count]) => [label, Number(count)])).toEqual(
      insights.rows.map((row: Json) => [row.label, row.count]),
    );
    // Printed rounded to the unit.
    cityLines.forEach(([, , , printed], index) => {
      const median = insights.rows[index].salary.median;
      expect(Math.abs(Number(printed?.replaceAll(',', '')) - median)).toBeLessThanOrEqual(0.5);
    });

    const pages = await searchPages(client, { ...filters, page_size: 5 }, 3);
    expect(listedLeadIds(stdout)).toEqual(pages.flatMap((page) => page.leads.map((lead: Json) => lead.id)));
    expect(stdout).toContain(`${pages[0].total} open roles match`);
    expect(stdout).toContain('15 leads on 3 pages.');
  });

  it('market_report.py waits out rate_limited as told, and stops at quota_exceeded saying when it resets', async () => {
    // Far in the future (no TTL index removes the counters meanwhile), one second before a minute
    // ends: a call refused for the rate is told to retry in 1 s. The clock moves to the same second
    // of the next minute when the script says it waits, so its retry lands in a new minute.
    let now = new Date('2099-05-20T10:00:59.000Z');
    const limited = await startTestServer({ tools, clock: () => now });
    try {
      const { account, key: limitedKey } = await createAccountWithKey(limited.services, {
        callsPerMinute: 2,
      });
      await limited.services.accounts.update(account._id, { quota_overrides: { lead_explores: 12 } }, now);
      const waits: string[] = [];
      const run = await runPython(
        python,
        script('market_report.py'),
        ['--page-size', '5', '--max-pages', '10'],
        {
          env: connection(limited, limitedKey),
          onStderrLine: (line) => {
            if (!line.includes('rate_limited')) return;
            waits.push(line);
            now = new Date(now.getTime() + 60_000);
          },
        },
      );
      const stdout = succeeded(run);

      // insights and page 1 fill the first minute; pages 2 and 3 (cut to 2 leads) the second; page 4
      // finds the quota used up.
      expect(waits).toEqual(Array(2).fill('search_leads: rate_limited, retrying in 1 s'));
      expect(listedLeadIds(stdout)).toHaveLength(12);
      expect(stdout).toContain(
        'Stopped: the daily lead_explores quota is used up; it resets at 2099-05-21T00:00:00.000Z.',
      );
      expect(stdout).toContain('12 leads on 3 pages.');
      expect(await limited.services.quotaCounters.used(account._id, 'lead_explores', now)).toBe(12);
    } finally {
      await limited.close();
    }
  });

  it('mcp_sdk_report.py (the mcp SDK) lists the tools, the quotas and the newest roles', async () => {
    // The plan's own limits, which the script reports: its three calls stay well under them.
    const { key: sdkKey } = await createAccountWithKey(server.services, { plan: 'starter' });
    const stdout = succeeded(
      await runPython(python, script('mcp_sdk_report.py'), ['--title', 'engineer', '--location', 'Berlin'], {
        env: connection(server, sdkKey),
      }),
    );

    expect(stdout).toContain('Connected to hiring-leads ');
    expect(stdout).toContain(`${tools.length} tools: ${tools.map((tool) => tool.name).join(', ')}`);
    expect(stdout).toContain('Plan starter (active), 30 calls a minute');
    expect(stdout).toContain('  lead_explores: 0 used, 500 left');
    const [page] = await searchPages(client, { title: 'engineer', location: 'Berlin', page_size: 5 }, 1);
    expect(listedLeadIds(stdout)).toEqual(page.leads.map((lead: Json) => lead.id));
  });

  it('salary_chart.py draws median salary by city and the posted-month trend into a PNG', async () => {
    const output = path.join(outputDir, 'chart.png');
    const stdout = succeeded(
      await runPython(python, script('salary_chart.py'), ['--title', 'engineer', '--output', output], {
        env: connection(server, key),
      }),
    );

    const insights = (group_by: string, limit: number) =>
      callOk(client, 'get_market_insights', {
        group_by,
        metric: 'salary',
        limit,
        filters: { title: 'engineer' },
      });
    const [byCity, byMonth] = [await insights('city', 10), await insights('posted_month', 12)];
    expect(
      [...stdout.matchAll(/^city (.+): (\d+) roles/gm)].map(([, label, count]) => [label, Number(count)]),
    ).toEqual(byCity.rows.map((row: Json) => [row.label, row.count]));
    expect(
      [...stdout.matchAll(/^month (\S+): (\d+) roles/gm)].map(([, month, count]) => [month, Number(count)]),
    ).toEqual(byMonth.rows.map((row: Json) => [row.key, row.count]));
    expect(byMonth.rows.length).toBeGreaterThan(6);

    const png = await readFile(output);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // The IHDR chunk comes first: width and height, big-endian, from byte 16.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 480]);
    expect(stdout).toContain(`Wrote ${output} (1200x480 pixels).`);
    // Two panels of bars, lines and text: far more than a blank image compresses to.
    expect(png.length).toBeGreaterThan(30_000);
  });

  it('take the key from --api-key too, and stop with a message naming what is missing', async () => {
    const withFlags = await runPython(python, script('mcp_sdk_report.py'), [
      '--url',
      server.url,
      '--api-key',
      key,
      '--page-size',
      '1',
    ]);
    expect(succeeded(withFlags)).toContain('Plan scale (active)');

    const missing = await runPython(python, script('market_report.py'), [], {
      env: { HIRING_LEADS_URL: server.url },
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no API key: pass --api-key or set HIRING_LEADS_API_KEY');
  });
});
