import http from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed body, or `undefined` when it is not JSON. */
  json: unknown;
}

export interface HttpRequest {
  method: string;
  path: string;
  /** Sent exactly as given: the client adds only `Content-Length` (and `Host` when absent). */
  headers: Record<string, string>;
  body?: Buffer;
}

/**
 * A plain HTTP/1.1 client over one keep-alive agent. Unlike `fetch` it sends any header the
 * fuzzer chooses (`Host`, `Content-Encoding`, odd `Content-Type`s) and any bytes as the body.
 */
export class HttpClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

  constructor(
    private readonly host: string,
    private readonly port: number,
    /** A request taking longer than this fails the property: the server must answer every request. */
    private readonly timeoutMs = 30_000,
  ) {}

  send(request: HttpRequest): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const outgoing = http.request(
        {
          host: this.host,
          port: this.port,
          method: request.method,
          path: request.path,
          headers: {
            ...request.headers,
            ...(request.body !== undefined && { 'Content-Length': String(request.body.length) }),
          },
          agent: this.agent,
          timeout: this.timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              text,
              json: parseJson(text),
            });
          });
        },
      );
      outgoing.on('timeout', () =>
        outgoing.destroy(
          new Error(`no answer within ${this.timeoutMs} ms to ${request.method} ${request.path}`),
        ),
      );
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
