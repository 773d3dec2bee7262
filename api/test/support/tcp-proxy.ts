import net from 'node:net';

/**
 * A small Toxiproxy-like TCP proxy for fault tests: the app talks to PostgreSQL through it, and
 * a test can make the database "go away" in the ways a restart, a failover or a dead network do.
 *
 *   const proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
 *   const url = proxy.rewrite(process.env.DATABASE_URL!); // the same database, through the proxy
 *   proxy.cut();      // every open connection is reset, new ones are refused (a restart)
 *   proxy.blackhole(); // open and new connections go silent: nothing is forwarded (a dead network)
 *   proxy.restore();  // forward again
 */
export interface TcpProxy {
  readonly port: number;
  /** the same URL with its host and port replaced by the proxy's */
  rewrite(url: string): string;
  /** connections currently open through the proxy */
  readonly openConnections: number;
  /** resets every open connection and refuses new ones until `restore` */
  cut(): void;
  /** keeps connections open but forwards nothing either way, and accepts new ones into the void */
  blackhole(): void;
  /** forwards new connections again (connections cut or swallowed while down stay gone) */
  restore(): void;
  close(): Promise<void>;
}

type Mode = 'forward' | 'refuse' | 'blackhole';

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: Mode = 'forward';
  const sockets = new Set<net.Socket>();
  const swallowed = new Set<net.Socket>();

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      swallowed.delete(socket);
    });
    // A reset peer must not become an unhandled 'error' in the test process.
    socket.on('error', () => socket.destroy());
  };

  const server = net.createServer((client) => {
    track(client);
    if (mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    if (mode === 'blackhole') {
      client.pause();
      swallowed.add(client);
      return;
    }
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    rewrite(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    get openConnections() {
      return sockets.size;
    },
    cut() {
      mode = 'refuse';
      // RST rather than FIN: what a crashed server or a failover looks like to the client.
      for (const socket of sockets) socket.resetAndDestroy();
    },
    blackhole() {
      mode = 'blackhole';
      for (const socket of sockets) {
        socket.unpipe();
        socket.pause();
        swallowed.add(socket);
      }
    },
    restore() {
      mode = 'forward';
      // Swallowed connections are useless now (their protocol state is lost): reset them.
      for (const socket of swallowed) socket.resetAndDestroy();
      swallowed.clear();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
