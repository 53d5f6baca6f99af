import { existsSync } from 'node:fs';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
  type Response,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';

/** Debian's Chromium (`apt-get install chromium`); `CHROMIUM_PATH` points elsewhere. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Why the browser tests cannot run on this machine, or `undefined` when they can. A developer
 * without Chromium sees them skipped with this reason; under CI (`CI` set) a missing browser is
 * a failure, never a silent skip.
 */
function browserMissingReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const reason = `no browser at ${CHROMIUM_PATH}: install it with \`apt-get install chromium\` or set CHROMIUM_PATH`;
  if (process.env.CI) throw new Error(`${reason}. CI must run the browser tests.`);
  return reason;
}

/** `describe`, skipped with the reason in its name when there is no Chromium to drive. */
export function describeWithBrowser(name: string, body: () => void): void {
  const missing = browserMissingReason();
  if (missing !== undefined) console.warn(`Skipping "${name}": ${missing}`);
  describe.skipIf(missing !== undefined)(
    missing === undefined ? name : `${name} (skipped: ${missing})`,
    body,
  );
}

export interface TestBrowser {
  /** A page in a fresh context: its own cookies, as a different person or profile would have. */
  newPage(): Promise<Page>;
}

/**
 * One headless Chromium for the whole file, launched before its tests and closed after them.
 * Call it at the top of a `describeWithBrowser` body.
 */
export function useBrowser(): TestBrowser {
  let browser: Browser | undefined;
  /** The contexts the current test opened: closed after it, so tabs of earlier tests stop using the machine. */
  const opened: BrowserContext[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((context) => context.close()));
  });
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      // Chromium refuses to run its sandbox as root (CI containers); /dev/shm is tiny in containers.
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-dev-shm-usage'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async newPage() {
      if (browser === undefined) throw new Error('useBrowser(): the browser is started in beforeAll');
      const context = await browser.newContext();
      opened.push(context);
      // A page that never shows what a test waits for fails the test well before vitest's own
      // limit; 20 s, as the files run three at a time beside heavier ones on two cores.
      context.setDefaultTimeout(20_000);
      return context.newPage();
    },
  };
}

/** A redirect being watched for: `url` resolves with the first that starts with the target. */
export interface RedirectWatch {
  url: Promise<URL>;
}

/**
 * Watches `page` for the first redirect (a 3xx `Location`) that starts with `target`, whatever its
 * scheme: `https://claude.ai/...` and `cursor://...` are never followed for real here, so https
 * targets are answered with a blank page and private-use schemes left for the browser to drop.
 * Resolves once the browser answers them: start navigating only then, or the redirect can reach
 * the real network first (a name that does not resolve, and a failed navigation).
 */
export async function watchRedirect(page: Page, target: string): Promise<RedirectWatch> {
  const targetUrl = new URL(target);
  // Listening starts before any await, so no response can pass between the two.
  const url = new Promise<URL>((resolve) => {
    const onResponse = (response: Response) => {
      const location = response.headers().location;
      if (location === undefined) return;
      const redirect = new URL(location, response.url());
      if (!redirect.href.startsWith(target)) return;
      page.off('response', onResponse);
      resolve(redirect);
    };
    page.on('response', onResponse);
  });
  if (targetUrl.protocol === 'https:') {
    await page.route(
      (address) => address.origin === targetUrl.origin,
      (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'redirect captured' }),
    );
  }
  return { url };
}

/** What the page's requests got, in order, with the time each answer came: for a failure's message. */
export function navigationTrail(page: Page): string[] {
  const started = performance.now();
  const trail: string[] = [];
  const at = () => `${Math.round(performance.now() - started)} ms`;
  page.on('response', (response) => {
    const location = response.headers().location;
    trail.push(
      `${at()}: ${response.status()} ${response.url()}${location === undefined ? '' : ` -> ${location}`}`,
    );
  });
  page.on('requestfailed', (request) =>
    trail.push(`${at()}: failed ${request.url()}: ${request.failure()?.errorText}`),
  );
  return trail;
}

export interface Person {
  email: string;
  password: string;
}

const SIGN_IN_BUTTON = /^(sign in|log in)$/i;
const APPROVE_BUTTON = /allow|approve|authori[sz]e/i;
const DENY_BUTTON = /deny|cancel|decline/i;

/**
 * Fills in the sign-in page the way a person does, by its labels: the form must be accessible for
 * these to be found at all.
 */
export async function signIn(page: Page, person: Person): Promise<void> {
  await page.getByLabel(/e-?mail/i).fill(person.email);
  await page.getByLabel(/password/i).fill(person.password);
  await page.getByRole('button', { name: SIGN_IN_BUTTON }).click();
}

/** Approves (or denies) on the consent page. */
export async function answerConsent(page: Page, answer: 'approve' | 'deny'): Promise<void> {
  await page.getByRole('button', { name: answer === 'approve' ? APPROVE_BUTTON : DENY_BUTTON }).click();
}

/**
 * Whatever the authorization server shows next, answered as a person who says yes: the sign-in
 * page (skipped when the browser is still signed in), then the consent page (skipped when this
 * client already has consent for these scopes), until the browser is sent to `redirected`.
 */
export async function completeAuthorization(
  page: Page,
  person: Person,
  redirected: Promise<URL>,
): Promise<URL> {
  let arrived: URL | undefined;
  const arrival = redirected.then((url) => {
    arrived = url;
    return 'redirected' as const;
  });
  const shown = (name: 'sign-in' | 'consent', locator: Locator) =>
    locator.waitFor().then(
      () => name,
      () => 'nothing' as const,
    );
  // After each answer, wait for the next document (or the redirect) before looking again.
  const nextPage = () =>
    Promise.race([page.waitForEvent('load').catch(() => undefined), arrival.catch(() => undefined)]);
  for (let step = 0; step < 3 && arrived === undefined; step++) {
    const current = await Promise.race([
      arrival,
      shown('sign-in', page.getByLabel(/password/i)),
      shown('consent', page.getByRole('button', { name: APPROVE_BUTTON })),
    ]);
    if (current === 'redirected') break;
    if (current === 'nothing') {
      const shownText = await page
        .locator('body')
        .innerText()
        .catch(() => '');
      throw new Error(`Neither the sign-in nor the consent page came at ${page.url()}:\n${shownText}`);
    }
    const next = nextPage();
    if (current === 'sign-in') await signIn(page, person);
    else await answerConsent(page, 'approve');
    await next;
  }
  return arrived ?? redirected;
}

/**
 * The whole browser part of an authorization: open the authorization URL, sign in and approve as
 * needed, and return where the authorization server sent the browser back (code, state, iss).
 */
export async function authorizeInBrowser(
  page: Page,
  authorizationUrl: string | URL,
  person: Person,
  redirectUri: string,
): Promise<URL> {
  const redirect = await watchRedirect(page, redirectUri);
  await page.goto(String(authorizationUrl));
  return completeAuthorization(page, person, redirect.url);
}
