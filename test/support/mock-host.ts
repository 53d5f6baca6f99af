import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FrameLocator, Page } from 'playwright-core';

/**
 * The content security policy MCP Apps hosts must apply to a view whose resource declares no
 * outside origins (the specification's "restrictive default"): no network, no `eval`.
 */
const DEFAULT_VIEW_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "connect-src 'none'",
].join('; ');

/** A JSON-RPC message between the view and its host. */
export interface ViewMessage {
  jsonrpc: '2.0';
  id?: string | number;
  method?: string;
  // The view protocol's params and results are read loosely; assertions check their shape.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  params?: any;
}

/**
 * The host page stores nothing of its own: every message from the view goes to the test
 * (`__fromView`), which answers through `postMessage` into the frame. The listener is in place
 * before the frame gets its document, so the view's first message is never missed.
 */
const HOST_PAGE = `<!doctype html>
<html><body style="margin:0">
<iframe id="view" sandbox="allow-scripts" style="display:block;width:640px;height:120px;border:0"></iframe>
<script>
  const view = document.getElementById('view');
  window.addEventListener('message', (event) => {
    if (event.source === view.contentWindow) window.__fromView(event.data);
  });
</script>
</body></html>`;

/**
 * What the host adds to the view's document: the policy as a meta element, first in the head so
 * that it covers everything after it, and a reporter of policy violations (allowed by that very
 * policy, being an inline script), since a refused `eval` inside a library may leave no other trace.
 */
function underPolicy(html: string): string {
  const added = [
    `<meta http-equiv="Content-Security-Policy" content="${DEFAULT_VIEW_CSP}">`,
    `<script>document.addEventListener('securitypolicyviolation', (event) => parent.postMessage({ policyViolation: event.violatedDirective + ' ' + event.blockedURI }, '*'));</script>`,
  ].join('');
  const head = html.indexOf('<head>');
  if (head < 0) throw new Error('The view document has no <head>');
  return html.slice(0, head + '<head>'.length) + added + html.slice(head + '<head>'.length);
}

/**
 * A page that hosts one MCP App view the way MCP Apps hosts do: the view in an
 * `<iframe sandbox="allow-scripts">` under the default policy, its height following the view's
 * `size-changed` notifications, its `tools/call` requests answered by `callTool` (the test forwards
 * them to the real server). The test plays the rest of the host's side: the handshake, the tool's
 * input and result, context changes.
 */
export class MockHost {
  /** Every message the view sent, in order. */
  readonly received: ViewMessage[] = [];
  /** Console errors, uncaught exceptions and policy violations seen in the page or the view. */
  readonly problems: string[] = [];
  readonly view: FrameLocator;
  /** Messages no `next` has taken yet, and those waiting for one. */
  private readonly untaken: ViewMessage[] = [];
  private readonly waiting: { method: string; resolve(message: ViewMessage): void }[] = [];

  private constructor(
    private readonly page: Page,
    private readonly callTool: (params: CallToolRequest['params']) => Promise<CallToolResult>,
  ) {
    this.view = page.frameLocator('#view');
  }

  static async open(
    page: Page,
    viewHtml: string,
    callTool: (params: CallToolRequest['params']) => Promise<CallToolResult>,
  ): Promise<MockHost> {
    const host = new MockHost(page, callTool);
    page.on('console', (message) => {
      if (message.type() === 'error') host.problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => host.problems.push(`uncaught: ${error.message}`));
    await page.exposeBinding('__fromView', (_source, message: unknown) => host.receive(message));
    await page.setContent(HOST_PAGE);
    await page.locator('#view').evaluate((frame: { srcdoc: string }, html: string) => {
      frame.srcdoc = html;
    }, underPolicy(viewHtml));
    return host;
  }

  private receive(message: unknown): void {
    const violation = (message as { policyViolation?: string }).policyViolation;
    if (violation !== undefined) {
      this.problems.push(`policy violation: ${violation}`);
      return;
    }
    const viewMessage = message as ViewMessage;
    this.received.push(viewMessage);
    const waiter = this.waiting.find((candidate) => candidate.method === viewMessage.method);
    if (waiter) {
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.resolve(viewMessage);
    } else {
      this.untaken.push(viewMessage);
    }
    if (
      viewMessage.method === 'ui/notifications/size-changed' &&
      typeof viewMessage.params?.height === 'number'
    ) {
      this.inBackground(this.resizeFrame(viewMessage.params.height));
    }
    if (viewMessage.method === 'tools/call' && viewMessage.id !== undefined) {
      const id = viewMessage.id;
      this.inBackground(
        this.callTool(viewMessage.params).then(
          (result) => this.send({ jsonrpc: '2.0', id, result }),
          (error: Error) =>
            this.send({ jsonrpc: '2.0', id, error: { code: -32603, message: error.message } }),
        ),
      );
    }
  }

  /**
   * Work the host does on its own, answering the view: a failure is a problem the test reports,
   * except once the test has closed the page, when an answer has nowhere to go.
   */
  private inBackground(work: Promise<void>): void {
    work.catch((error: Error) => {
      if (!this.page.isClosed()) this.problems.push(`host: ${error.message}`);
    });
  }

  private async resizeFrame(height: number): Promise<void> {
    await this.page.locator('#view').evaluate((frame: { style: { height: string } }, pixels: number) => {
      frame.style.height = `${pixels}px`;
    }, height);
  }

  /**
   * The next message from the view with this method (one received earlier and not yet taken
   * counts), or a failure naming what the view did send, well before the test's own time limit.
   */
  next(method: string, withinMs = 10_000): Promise<ViewMessage> {
    const index = this.untaken.findIndex((message) => message.method === method);
    if (index >= 0) return Promise.resolve(this.untaken.splice(index, 1)[0] as ViewMessage);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        const sent = this.received.map((message) => message.method ?? `answer to ${message.id}`);
        reject(new Error(`The view sent no ${method} within ${withinMs} ms; it sent: ${sent.join(', ')}`));
      }, withinMs);
      const waiter = {
        method,
        resolve: (message: ViewMessage) => {
          clearTimeout(timer);
          resolve(message);
        },
      };
      this.waiting.push(waiter);
    });
  }

  /** Answers a request of the view. */
  respond(id: string | number, result: unknown): Promise<void> {
    return this.send({ jsonrpc: '2.0', id, result });
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.send({ jsonrpc: '2.0', method, params });
  }

  private async send(message: Record<string, unknown>): Promise<void> {
    await this.page
      .locator('#view')
      .evaluate(
        (frame: { contentWindow: { postMessage(data: unknown, origin: string): void } }, data: unknown) => {
          frame.contentWindow.postMessage(data, '*');
        },
        message,
      );
  }
}
