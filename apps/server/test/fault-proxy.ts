/**
 * A TCP proxy between the server and one of its neighbours (PostgreSQL, Redis), for fault
 * tests: the test cuts, blackholes or slows the line without stopping the machine's shared
 * service. Every connection goes through `127.0.0.1:<port>` to `target`.
 */
import net from 'node:net';

export type LineState =
  /** Bytes pass, after `delayMs` each way. */
  | { kind: 'open'; delayMs: number }
  /** Open connections are reset and new ones are refused at once (a restart, a failover). */
  | { kind: 'cut' }
  /** Connections are accepted and then never answered (a dropped route, a hung host). */
  | { kind: 'blackhole' };

export interface FaultProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  cut(): void;
  blackhole(): void;
  delay(ms: number): void;
  restore(): void;
  close(): Promise<void>;
  /** Connections accepted so far, to show that a client reconnected. */
  readonly connectionsAccepted: number;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let state: LineState = { kind: 'open', delayMs: 0 };
  let connectionsAccepted = 0;
  const open = new Set<net.Socket>();

  const destroyAll = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };

  const relay = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => {
      if (state.kind === 'blackhole') return;
      const delayMs = state.kind === 'open' ? state.delayMs : 0;
      if (delayMs === 0) to.write(chunk);
      else setTimeout(() => to.writable && to.write(chunk), delayMs);
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };

  const server = net.createServer((client) => {
    if (state.kind === 'cut') {
      client.resetAndDestroy();
      return;
    }
    connectionsAccepted += 1;
    open.add(client);
    client.on('close', () => open.delete(client));
    if (state.kind === 'blackhole') {
      client.on('error', () => client.destroy());
      return;
    }
    const upstream = net.connect(target.port, target.host);
    open.add(upstream);
    upstream.on('close', () => open.delete(upstream));
    relay(client, upstream);
    relay(upstream, client);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    through(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut() {
      state = { kind: 'cut' };
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    blackhole() {
      state = { kind: 'blackhole' };
    },
    delay(ms) {
      state = { kind: 'open', delayMs: ms };
    },
    restore() {
      // Connections held in a blackhole are dropped: their clients time out and reconnect.
      if (state.kind === 'blackhole') destroyAll();
      state = { kind: 'open', delayMs: 0 };
    },
    async close() {
      destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    get connectionsAccepted() {
      return connectionsAccepted;
    },
  };
}
