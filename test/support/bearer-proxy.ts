import http from 'node:http';
import { closeNow, listenOnLoopback } from './local-listener.js';

/**
 * An HTTP forwarder on 127.0.0.1 that adds `Authorization: Bearer <token>` to every request and
 * passes everything else through as sent (`Host` and `Origin` included), for clients that cannot
 * send a credential themselves, such as the MCP conformance suite. It listens before it knows where
 * to forward, so a server can be told its own address (the proxy's) when it starts.
 */
export interface BearerProxy {
  port: number;
  forwardTo(port: number, token: string): void;
  close(): Promise<void>;
}

export async function startBearerProxy(): Promise<BearerProxy> {
  let target: { port: number; token: string } | undefined;
  const server = http.createServer((req, res) => {
    if (target === undefined) {
      res.writeHead(503).end();
      return;
    }
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${target.token}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const port = await listenOnLoopback(server);
  return {
    port,
    forwardTo: (targetPort, token) => {
      target = { port: targetPort, token };
    },
    close: () => closeNow(server),
  };
}
