// In-process starters for API tests and e2e: each takes `{ port: 0 }` for a free port.
export { OIDC_DEFAULTS, startOidcProvider, type OidcProviderOptions, type RunningOidcProvider } from './oidc-provider.js';
export { DEV_ACCOUNTS, type DevAccount } from './oidc-accounts.js';
export { SMTP_DEFAULTS, startSmtpServer, type RunningSmtpServer, type SmtpServerOptions } from './smtp-server.js';
export type { StoredMessage } from './mail-store.js';
export { STRIPE_DEFAULTS, startStripeStandin, type RunningStripeStandin, type StripeStandinOptions } from './stripe-standin.js';
export { VIES_DEFAULTS, startViesStandin, type RunningViesStandin, type ViesStandinOptions } from './vies-standin.js';
export { S3_DEFAULTS, startS3Standin, type RunningS3Standin, type S3StandinOptions } from './s3-standin.js';
