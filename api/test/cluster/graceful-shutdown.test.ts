import net from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/build-test-app.js';

// What server.ts's close-with-grace runs on SIGTERM (app.close()), on a listening app with the job
// queue on: the request in flight is answered, readiness says 503 meanwhile, the queue stops
// and the database pool closes. (close-with-grace itself exits 1 past SHUTDOWN_GRACE_MS.)

/**
 * Opens a request whose body is sent only when `finish` is called: in flight until then. The
 * payment webhook, because it reads the whole body before answering (a route with the CSRF check
 * refuses at once, before the body).
 */
function requestInFlight(port: number): Promise<{ finish(): void; response: Promise<string> }> {
  const body = JSON.stringify({ id: 'evt_graceful', type: 'payment_intent.succeeded', created: 1 });
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /api/payments/webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
      );
      let received = '';
      const response = new Promise<string>((done) => {
        socket.on('data', (chunk) => {
          received += chunk.toString();
        });
        socket.on('close', () => done(received));
        socket.on('error', () => done(received));
      });
      resolve({ finish: () => socket.end(body.slice(5)), response });
    });
    socket.on('error', reject);
  });
}

describe('closing the API (SIGTERM)', () => {
  it('answers the request in flight, then stops the job queue and closes the pool', async () => {
    let inRoute = false;
    const app = await buildTestApp(
      { jobs: { enabled: true, pollingIntervalSeconds: 1, retryLimit: 3, retryDelaySeconds: 1, outboxSweepMs: 200 } },
      (instance) => {
        instance.addHook('onRequest', async (request) => {
          if (request.url === '/api/payments/webhook') inRoute = true;
        });
      },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);

    const inFlight = await requestInFlight(port);
    while (!inRoute) await new Promise((resolve) => setTimeout(resolve, 20));
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Still waiting for the request in flight; a new request is refused or told to go elsewhere.
    expect(closed).toBe(false);
    const during = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
      (response) => response.status,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(during);

    inFlight.finish();
    // The route's own answer (no valid signature), not a reset or a 503.
    expect(await inFlight.response).toMatch(/^HTTP\/1\.1 400 /);
    await closing;
    expect(closed).toBe(true);
    await expect(sql`select 1`.execute(app.db)).rejects.toThrow();
  });
});
