import type { Server as HttpServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';

/** Listens and resolves with the bound port (useful with port 0); rejects when the port is taken. */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** Closes an HTTP server without waiting for idle keep-alive connections to time out. */
export async function closeHttpServer(server: HttpServer): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
  });
  server.closeAllConnections();
  await closed;
}

/** Formats a host for a URL: IPv6 literals need brackets. */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
