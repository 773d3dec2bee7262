/**
 * The stand-ins accept any card, sign anyone in and show every e-mail (password-reset links
 * included) to whoever asks. A production machine must never run them, not even by mistake:
 * each starter calls this first, before it binds a port.
 */
export function refuseProduction(service: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.NODE_ENV === 'production') {
    throw new Error(
      `${service} is a development stand-in and does not start with NODE_ENV=production. ` +
        'Configure the real service (OIDC_*, SMTP_URL, STRIPE_*) for the API instead.',
    );
  }
}
