/**
 * A browser without a browser: plain `fetch` with a cookie jar and manual redirects, for tests of
 * the server-rendered pages that look at every status, header and cookie on the way. (The
 * Chromium tests in oauth-browser.test.ts drive the same pages through a real browser.)
 */
export interface PageAnswer {
  /** Where this answer came from. */
  url: URL;
  status: number;
  headers: Headers;
  text: string;
  /** `Location`, resolved against the request's URL; undefined when there is none. */
  location: URL | undefined;
}

export class PageClient {
  /** name → value; paths are ignored, which only ever sends a cookie to more of our own paths. */
  readonly cookies = new Map<string, string>();

  /** `root`: the server's address; paths given to get/post are resolved against it. */
  constructor(
    readonly root: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  get(path: string | URL): Promise<PageAnswer> {
    return this.request('GET', path);
  }

  /** Posts `fields` as a urlencoded form (arrays repeat the field, like checkboxes). */
  post(path: string | URL, fields: Record<string, string | string[]>): Promise<PageAnswer> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) {
      for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
    }
    return this.request('POST', path, body.toString());
  }

  /** GETs `path` and follows redirects on this server until an answer that is not one (or one leaving it). */
  async follow(path: string | URL): Promise<PageAnswer> {
    let answer = await this.get(path);
    for (let hops = 0; hops < 10; hops++) {
      const next = answer.location;
      if (next === undefined || next.origin !== new URL(this.root).origin) return answer;
      answer = await this.get(next);
    }
    throw new Error(`Too many redirects from ${String(path)}`);
  }

  private async request(method: string, path: string | URL, body?: string): Promise<PageAnswer> {
    const url = new URL(path, this.root);
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...this.headers,
        ...(cookie && { Cookie: cookie }),
        ...(body !== undefined && { 'Content-Type': 'application/x-www-form-urlencoded' }),
      },
      ...(body !== undefined && { body }),
    });
    for (const line of response.headers.getSetCookie()) this.store(line);
    const location = response.headers.get('location');
    return {
      url,
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: location === null ? undefined : new URL(location, url),
    };
  }

  private store(setCookie: string): void {
    const [pair = '', ...attributes] = setCookie.split(';');
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator).trim();
    const value = pair.slice(separator + 1).trim();
    const expired = attributes.some((attribute) => {
      const [key = '', date = ''] = attribute.trim().split('=');
      return key.toLowerCase() === 'expires' && Date.parse(date) <= Date.now();
    });
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/**
 * The value of the `csrf_token` field of the first form of the page's main content, or with
 * `action`, of the form posting there (the header's sign-out form, `/account/logout`, has a token of
 * its own).
 */
export function csrfTokenOf(page: PageAnswer, action?: string): string {
  const scope = action === undefined ? page.text.slice(page.text.indexOf('<main')) : page.text;
  const form = action === undefined ? '' : `<form method="post" action="${action}">\\s*`;
  const token = new RegExp(`${form}<input type="hidden" name="csrf_token" value="([^"]+)"`).exec(scope)?.[1];
  if (token === undefined)
    throw new Error(`No CSRF token on the page (${page.status}): ${page.text.slice(0, 500)}`);
  return token;
}

/** Signs in on the account pages with the form's own CSRF token; the answer is 303 when it worked. */
export async function signInToAccount(
  browser: PageClient,
  email: string,
  password: string,
): Promise<PageAnswer> {
  const form = await browser.get('/account');
  return browser.post('/account/sign-in', { csrf_token: csrfTokenOf(form), email, password });
}
