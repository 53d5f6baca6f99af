import type http from 'node:http';
import type https from 'node:https';
import type { AddressInfo, Server } from 'node:net';

/**
 * What a test's own listener receives (the browser's redirect, a URL a program asked to open),
 * handed out in arrival order to whoever waits for the next one.
 */
export class Arrivals<T> {
  private readonly waiting: Array<(value: T) => void> = [];
  private readonly arrived: T[] = [];
  /** How many arrived so far, taken or not. */
  count = 0;

  add(value: T): void {
    this.count++;
    const resolve = this.waiting.shift();
    if (resolve) resolve(value);
    else this.arrived.push(value);
  }

  next(): Promise<T> {
    if (this.arrived.length > 0) return Promise.resolve(this.arrived.shift() as T);
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

/** Starts `server` on a free port of 127.0.0.1; returns the port. */
export async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Stops `server` at once, its open keep-alive connections included. */
export function closeNow(server: http.Server | https.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
