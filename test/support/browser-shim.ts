import { chmod, mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { Arrivals, closeNow, listenOnLoopback } from './local-listener.js';

/**
 * What a desktop's "open this URL in the browser" becomes in a headless test: `xdg-open` (first on
 * PATH) and `$BROWSER` (what the `xdg-open` bundled with npm's `open` calls) are a small node
 * script that hands the URL to the test, which drives its own Chromium with it. One Chromium per
 * file, and the sign-in steps stay in one place (test/support/browser.ts).
 */
export interface BrowserShim {
  /** Prepend to PATH. */
  binDir: string;
  /** The value for BROWSER. */
  command: string;
  /** The next URL a program asked the shim to open. */
  nextUrl(): Promise<URL>;
  /** How many URLs programs asked it to open so far. */
  openedCount(): number;
  close(): Promise<void>;
}

export async function installBrowserShim(dir: string): Promise<BrowserShim> {
  const opened = new Arrivals<URL>();
  const inbox = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(204).end();
      opened.add(new URL(Buffer.concat(chunks).toString().trim()));
    });
  });
  const inboxUrl = `http://127.0.0.1:${await listenOnLoopback(inbox)}/`;

  const binDir = path.join(dir, 'bin');
  await mkdir(binDir, { recursive: true });
  const script = [
    `#!${process.execPath}`,
    // Exits 0 once the test has the URL: the opener then counts the browser as launched.
    `fetch(${JSON.stringify(inboxUrl)}, { method: 'POST', body: process.argv[2] ?? '' })`,
    '  .then(() => process.exit(0), () => process.exit(1));',
    '',
  ].join('\n');
  const command = path.join(binDir, 'xdg-open');
  await writeFile(command, script);
  await chmod(command, 0o755);
  return {
    binDir,
    command,
    openedCount: () => opened.count,
    nextUrl: () => opened.next(),
    close: () => closeNow(inbox),
  };
}

const CALLBACK_ATTEMPTS = 50;
const CALLBACK_RETRY_MS = 100;

/**
 * A native client may open the browser a moment before its loopback listener is up. The browser's
 * request to `redirectUri` is replayed until the listener answers (a bounded number of short
 * attempts), then shown as the client's own page.
 */
export async function retryLoopbackCallback(page: Page, redirectUri: string): Promise<void> {
  await page.route(
    (url) => url.href.startsWith(redirectUri),
    async (route) => {
      for (let attempt = 1; ; attempt++) {
        try {
          await route.fulfill({ response: await route.fetch() });
          return;
        } catch (error) {
          if (attempt >= CALLBACK_ATTEMPTS) throw error;
          await new Promise((resolve) => setTimeout(resolve, CALLBACK_RETRY_MS));
        }
      }
    },
  );
}
