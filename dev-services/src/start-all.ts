// Starts the offline stand-ins with the ports and settings from the environment, prints
// where they are and the API settings that point at them, and stops them on SIGINT/SIGTERM.

import { refuseProduction } from './production-guard.js';
import { OIDC_DEFAULTS, startOidcProvider } from './oidc-provider.js';
import { SMTP_DEFAULTS, startSmtpServer } from './smtp-server.js';
import { STRIPE_DEFAULTS, startStripeStandin } from './stripe-standin.js';
import { VIES_DEFAULTS, startViesStandin } from './vies-standin.js';
import { S3_DEFAULTS, startS3Standin } from './s3-standin.js';

function envPort(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`${name} must be a port number, got "${raw}"`);
  return port;
}

function envCount(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000)
    throw new Error(`${name} must be a whole number from 1 to 1000000, got "${raw}"`);
  return count;
}

function envString(name: string): string | undefined {
  const raw = process.env[name]?.trim();
  return raw ? raw : undefined;
}

function envList(name: string): string[] | undefined {
  const entries = envString(name)
    ?.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries?.length ? entries : undefined;
}

const running: { close(): Promise<void> }[] = [];
let stopping = false;

async function stopAll(exitCode: number): Promise<never> {
  stopping = true;
  await Promise.allSettled(running.map((service) => service.close()));
  process.exit(exitCode);
}

async function main() {
  refuseProduction('npm start -w dev-services');
  const clientId = envString('DEV_OIDC_CLIENT_ID') ?? OIDC_DEFAULTS.clientId;
  const clientSecret = envString('DEV_OIDC_CLIENT_SECRET') ?? OIDC_DEFAULTS.clientSecret;
  const webhookSecret = envString('DEV_STRIPE_WEBHOOK_SECRET') ?? STRIPE_DEFAULTS.webhookSecret;

  const oidc = await startOidcProvider({
    port: envPort('DEV_OIDC_PORT', OIDC_DEFAULTS.port),
    issuer: envString('DEV_OIDC_ISSUER'),
    clientId,
    clientSecret,
    redirectUris: envList('DEV_OIDC_REDIRECT_URIS'),
  });
  running.push(oidc);

  const mail = await startSmtpServer({
    port: envPort('DEV_SMTP_PORT', SMTP_DEFAULTS.port),
    mailboxPort: envPort('DEV_MAILBOX_PORT', SMTP_DEFAULTS.mailboxPort),
    // A soak sends thousands: DEV_MAILBOX_CAPACITY keeps them all for its book checks.
    capacity: envCount('DEV_MAILBOX_CAPACITY', SMTP_DEFAULTS.capacity),
  });
  running.push(mail);

  const stripe = await startStripeStandin({
    port: envPort('DEV_STRIPE_PORT', STRIPE_DEFAULTS.port),
    webhookUrl: envString('DEV_STRIPE_WEBHOOK_URL'),
    webhookSecret,
  });
  running.push(stripe);

  const vies = await startViesStandin({ port: envPort('DEV_VIES_PORT', VIES_DEFAULTS.port) });
  running.push(vies);

  const s3 = await startS3Standin({ port: envPort('DEV_S3_PORT', S3_DEFAULTS.port), buckets: ['boatshop-releases'] });
  running.push(s3);

  console.log(`Dev services are running (Ctrl+C stops them):
  OpenID provider  ${oidc.url}  (accounts: grace.sailor@example.com, sam.skipper@example.com)
  SMTP server      ${mail.url}
  Dev mailbox      ${mail.mailboxUrl}
  Stripe stand-in  ${stripe.url}  (webhooks to ${envString('DEV_STRIPE_WEBHOOK_URL') ?? STRIPE_DEFAULTS.webhookUrl})
  VIES stand-in    ${vies.url}  (VAT numbers ending 9999: invalid, 0000: unavailable)
  S3 stand-in      ${s3.url}  (bucket boatshop-releases; conditional writes as AWS answers them)

API settings that use them:
  OIDC_ISSUER=${oidc.url} OIDC_CLIENT_ID=${clientId} OIDC_CLIENT_SECRET=${clientSecret}
  SMTP_URL=${mail.url}
  STRIPE_SECRET_KEY=sk_test_dev STRIPE_PUBLISHABLE_KEY=pk_test_dev STRIPE_API_BASE=${stripe.url} STRIPE_WEBHOOK_SECRET=${webhookSecret}
  VIES_API_BASE=${vies.url}

Release registry in the S3 stand-in (shell and npm run release / promote / rollback):
  REGISTRY_STORE=s3 REGISTRY_S3_BUCKET=boatshop-releases S3_ENDPOINT=${s3.url} AWS_ACCESS_KEY_ID=${s3.accessKeyId} AWS_SECRET_ACCESS_KEY=${s3.secretAccessKey}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (!stopping) void stopAll(0);
  });
}

main().catch((error: unknown) => {
  // A port already taken usually means another copy is running; say so and stop what did start.
  console.error(`Dev services failed to start: ${error instanceof Error ? error.message : String(error)}`);
  void stopAll(1);
});
