import net, { type AddressInfo } from 'node:net';
import { commandOf, type MongoCommand, splitMessages } from './mongo-wire.js';

/**
 * A TCP forwarder in front of a backend, which a test can cut, black-hole and restore to play an
 * outage for real, without touching the shared backend itself: the server under test meets the
 * same socket errors and timeouts as in production, and its drivers' errors are what it translates.
 */
export interface TcpProxy {
  port: number;
  /** Refuses new connections and drops open ones: the backend is down. */
  cut(): Promise<void>;
  /**
   * Accepts connections and reads what they send, but forwards nothing and answers nothing, open
   * connections included: a backend that hangs. Only the client's own timeout ends a call then.
   */
  blackHole(): BlackHole;
  /**
   * Stops forwarding both ways and keeps what arrives, closing nothing: a backend frozen as by
   * SIGSTOP, whose kernel still accepts connections and bytes. `restore` delivers what was kept, in
   * order, as the backend resumed would: requests whose client gave up meanwhile are still run (a
   * charge may land then), and their answers go nowhere.
   */
  pause(): Paused;
  /**
   * Forwards again. Connections that lost bytes to the black hole are dropped (their protocol is
   * out of step); what a pause kept is delivered; faults not yet fired are disarmed.
   */
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface BlackHole {
  /** Connections that sent bytes into the black hole and were then closed by the client: it gave up waiting. */
  readonly abandonedConnections: number;
}

interface Paused {
  /** Connections closed by their client during the pause: it gave up waiting. */
  readonly abandonedConnections: number;
}

interface MongoFaultOptions {
  /**
   * `request` (the default): the connection drops before the command reaches the server, so it
   * never runs. `reply`: the server runs it and its answer is lost with the connection.
   */
  lose?: 'request' | 'reply';
  /**
   * `connection` (the default): only the connection carrying the command drops; new ones get
   * through, as after a network blip. `everything`: the proxy is cut from then on, until `restore`.
   */
  drop?: 'connection' | 'everything';
  /** How many matching commands in a row fail: the driver retries a failed read once. 1 by default. */
  times?: number;
}

interface MongoFault {
  /** How many times it happened, so a test can check that it did. */
  readonly fired: number;
}

/** A proxy in front of MongoDB that can also fail one chosen command as it goes by. */
export interface MongoProxy extends TcpProxy {
  /** Arms a fault for the next command `name` on `collection` that a client sends. */
  failOn(command: MongoCommand, options?: MongoFaultOptions): MongoFault;
}

interface ArmedFault extends Required<Omit<MongoFaultOptions, 'times'>> {
  command: MongoCommand;
  remaining: number;
  fired: number;
}

/** One client connection and its connection to the backend (none when it arrived in a black hole). */
interface Link {
  client: net.Socket;
  upstream?: net.Socket;
  /** Client bytes not yet forwarded: the start of a MongoDB message still arriving. */
  pending: Buffer;
  /** Bytes went into the black hole: what each side expects next is lost, so it cannot resume. */
  swallowed: boolean;
  /** A fault whose command the server is running: its answer ends the link instead of arriving. */
  losingReplyOf?: ArmedFault;
  /** What arrived during a pause, each way, to deliver once it ends. */
  kept: { fromClient: Buffer[]; fromBackend: Buffer[] };
  /** The client hung up during a pause: what it sent is still delivered, then the link ends. */
  clientGone: boolean;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  return startProxy(targetHost, targetPort, null);
}

export async function startMongoProxy(targetHost: string, targetPort: number): Promise<MongoProxy> {
  const faults: ArmedFault[] = [];
  const proxy = await startProxy(targetHost, targetPort, faults);
  return {
    ...proxy,
    failOn: (command, options = {}) => {
      const fault: ArmedFault = {
        command,
        lose: options.lose ?? 'request',
        drop: options.drop ?? 'connection',
        remaining: options.times ?? 1,
        fired: 0,
      };
      faults.push(fault);
      return fault;
    },
  };
}

/** With `faults` (MongoDB), client bytes are forwarded whole message by whole message, so one can be stopped. */
async function startProxy(
  targetHost: string,
  targetPort: number,
  faults: ArmedFault[] | null,
): Promise<TcpProxy> {
  const links = new Set<Link>();
  let listener: net.Server | null = null;
  /** Set while the proxy is a black hole. */
  let hole: { abandonedConnections: number } | null = null;
  /** Set while the proxy is paused. */
  let paused: { abandonedConnections: number } | null = null;

  const drop = (link: Link) => {
    links.delete(link);
    link.client.destroy();
    link.upstream?.destroy();
  };

  const cut = async () => {
    const closing = listener;
    listener = null;
    for (const link of links) drop(link);
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };

  const fire = (fault: ArmedFault, link: Link) => {
    fault.fired++;
    drop(link);
    if (fault.drop === 'everything') void cut();
  };

  /** The armed fault this client message triggers, if any; it counts as used. */
  const faultFor = (message: Buffer): ArmedFault | undefined => {
    const command = commandOf(message);
    const fault = faults?.find(
      (armed) =>
        armed.remaining > 0 &&
        armed.command.name === command?.name &&
        armed.command.collection === command.collection,
    );
    if (fault) fault.remaining--;
    return fault;
  };

  const fromClient = (link: Link, chunk: Buffer) => {
    if (paused) {
      link.kept.fromClient.push(chunk);
      return;
    }
    if (hole || !link.upstream) {
      link.swallowed = true;
      return;
    }
    if (faults === null) {
      link.upstream.write(chunk);
      return;
    }
    const { messages, rest } = splitMessages(Buffer.concat([link.pending, chunk]));
    link.pending = rest;
    for (const message of messages) {
      const fault = faultFor(message);
      if (fault?.lose === 'request') return fire(fault, link);
      link.upstream.write(message);
      if (fault) link.losingReplyOf = fault;
    }
  };

  const fromBackend = (link: Link, chunk: Buffer) => {
    if (paused) {
      link.kept.fromBackend.push(chunk);
      return;
    }
    if (link.clientGone) return;
    if (hole) {
      link.swallowed = true;
      return;
    }
    if (link.losingReplyOf) return fire(link.losingReplyOf, link);
    link.client.write(chunk);
  };

  const accept = (client: net.Socket) => {
    const link: Link = {
      client,
      pending: Buffer.alloc(0),
      swallowed: false,
      kept: { fromClient: [], fromBackend: [] },
      clientGone: false,
    };
    links.add(link);
    const clientGone = () => {
      if (link.clientGone || !links.has(link)) return;
      if (paused) {
        // The backend has the bytes already (in a frozen process's socket): they stay for it.
        paused.abandonedConnections++;
        link.clientGone = true;
        return;
      }
      // Still linked: the client hung up by itself, not because the proxy dropped it.
      if (hole && link.swallowed) hole.abandonedConnections++;
      drop(link);
    };
    for (const event of ['error', 'close'] as const) client.on(event, clientGone);
    if (!hole) {
      const upstream = net.connect(targetPort, targetHost);
      link.upstream = upstream;
      for (const event of ['error', 'close'] as const) upstream.on(event, () => drop(link));
      upstream.on('data', (chunk: Buffer) => fromBackend(link, chunk));
    }
    client.on('data', (chunk: Buffer) => fromClient(link, chunk));
  };

  /** Delivers what a pause kept; a link whose client left ends once its requests are sent. */
  const resume = (link: Link) => {
    const { fromClient: requests, fromBackend: replies } = link.kept;
    link.kept = { fromClient: [], fromBackend: [] };
    for (const chunk of requests) fromClient(link, chunk);
    if (link.clientGone) {
      link.upstream?.end();
      links.delete(link);
      return;
    }
    for (const chunk of replies) fromBackend(link, chunk);
  };

  const listen = async (port: number) => {
    const server = net.createServer(accept);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    listener = server;
    return (server.address() as AddressInfo).port;
  };

  const port = await listen(0);
  return {
    port,
    cut,
    blackHole: () => {
      hole = { abandonedConnections: 0 };
      return hole;
    },
    pause: () => {
      paused = { abandonedConnections: 0 };
      return paused;
    },
    restore: async () => {
      hole = null;
      faults?.splice(0);
      if (paused) {
        paused = null;
        for (const link of links) resume(link);
      }
      for (const link of links) if (link.swallowed || !link.upstream) drop(link);
      if (listener === null) await listen(port);
    },
    close: async () => {
      faults?.splice(0);
      await cut();
    },
  };
}
