import net from 'node:net';

// TRUST_PROXY: which proxies' X-Forwarded-For the API believes (proxy-addr's syntax).

/** Where the shell's /api proxy and a local reverse proxy connect from. */
export const DEFAULT_TRUSTED_PROXIES = ['127.0.0.1', '::1'] as const;

// proxy-addr's names for ranges, which Fastify understands as well as addresses and CIDRs.
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

export function isTrustedProxyList(raw: string): boolean {
  if (raw.toLowerCase() === 'none') return true;
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  // "true" or "*" would let any client pick its own IP, which is exactly what this setting prevents.
  return entries.every((entry) => {
    const [address, prefix, ...rest] = entry.split('/');
    const validAddress = PROXY_RANGE_NAMES.includes(entry) || (rest.length === 0 && net.isIP(address!) !== 0);
    return validAddress && (prefix === undefined || /^\d{1,3}$/.test(prefix));
  });
}

export function readTrustedProxies(value: string | undefined): string[] {
  if (value === undefined) return [...DEFAULT_TRUSTED_PROXIES];
  if (value.toLowerCase() === 'none') return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}
