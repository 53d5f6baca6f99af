import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { closeNow, listenOnLoopback } from './local-listener.js';

/**
 * An https server on 127.0.0.1 serving Client ID Metadata Documents: the `client_id` of such a
 * client is the document's own https URL. Its certificate is self-signed, made by `openssl` for
 * this run only; `certificate` is what a fetcher has to trust to read it.
 */
export interface ClientMetadataServer {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  /** The PEM certificate the server presents (its own CA). */
  certificate: string;
  /** Serves `document` at `pathname`; its `client_id` is set to the URL, which is returned. */
  publish(pathname: string, document: Record<string, unknown>): string;
  /** How many times each path was fetched. */
  fetches(pathname: string): number;
  close(): Promise<void>;
}

export async function startClientMetadataServer(): Promise<ClientMetadataServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hl-cimd-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ]);
  const [key, certificate] = await Promise.all([readFile(keyFile, 'utf8'), readFile(certFile, 'utf8')]);
  await rm(dir, { recursive: true, force: true });

  const documents = new Map<string, string>();
  const counts = new Map<string, number>();
  const server = https.createServer({ key, cert: certificate }, (req, res) => {
    const pathname = new URL(req.url ?? '/', 'https://127.0.0.1').pathname;
    counts.set(pathname, (counts.get(pathname) ?? 0) + 1);
    const body = documents.get(pathname);
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=60' }).end(body);
  });
  const origin = `https://127.0.0.1:${await listenOnLoopback(server)}`;
  return {
    origin,
    certificate,
    publish(pathname, document) {
      const clientId = `${origin}${pathname}`;
      documents.set(pathname, JSON.stringify({ ...document, client_id: clientId }));
      return clientId;
    },
    fetches: (pathname) => counts.get(pathname) ?? 0,
    close: () => closeNow(server),
  };
}

/**
 * A `fetch` for https URLs that trusts `certificate` (and nothing else): what the authorization
 * server is given in development to read a document this test serves with its own certificate.
 */
export function fetchTrusting(certificate: string): typeof globalThis.fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return new Promise<Response>((resolve, reject) => {
      const request = https.request(
        url,
        {
          method: init?.method ?? 'GET',
          headers: Object.fromEntries(new Headers(init?.headers)),
          ca: certificate,
          ...(init?.signal && { signal: init.signal }),
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(response.headers)) {
              for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
                headers.append(name, item);
              }
            }
            resolve(new Response(Buffer.concat(chunks), { status: response.statusCode ?? 0, headers }));
          });
        },
      );
      request.on('error', reject);
      request.end();
    });
  };
}
