import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import getPort from 'get-port';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startOidcProvider, startSmtpServer, startStripeStandin } from './index.js';

async function isListening(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(true));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
  });
}

// The stand-ins accept any card, sign anyone in and show every e-mail (reset links included) to
// whoever asks: a production machine must never run them, not even by mistake.
describe('with NODE_ENV=production', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it.each([
    ['OpenID provider', (port: number) => startOidcProvider({ port })],
    ['SMTP server', (port: number) => startSmtpServer({ port, mailboxPort: 0 })],
    ['Stripe stand-in', (port: number) => startStripeStandin({ port })],
  ])('the %s refuses to start and binds nothing', async (_name, start) => {
    vi.stubEnv('NODE_ENV', 'production');
    const port = await getPort();
    await expect(start(port)).rejects.toThrow(/NODE_ENV=production/);
    expect(await isListening(port)).toBe(false);
  });

  it('npm start -w dev-services exits at once with a message that says why', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'start-all.ts')], {
      env: { ...process.env, NODE_ENV: 'production', DEV_OIDC_PORT: '0', DEV_SMTP_PORT: '0', DEV_MAILBOX_PORT: '0', DEV_STRIPE_PORT: '0' },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(result.signal).toBeNull();
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/NODE_ENV=production/);
  });
});
