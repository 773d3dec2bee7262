import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * Security headers on every answer of the API. It serves JSON, the demo pictures, the OIDC
 * popup's last page (which sets its own hash-based policy) and, outside production, the OpenAPI
 * page: none of them needs to load anything, so the policy allows nothing and no framing. The
 * pages the shop runs in (the shell and the remotes) get their policy from their own servers
 * (packages/web-server/src/security-headers.ts, deploy/*.conf).
 */
export const API_CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
} as const;

/** For the pictures under /api/images: an SVG opened on its own can run nothing. */
export const IMAGE_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export const HSTS_HEADER = 'max-age=31536000; includeSubDomains';

export default fp(
  async (fastify) => {
    await fastify.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: { ...API_CONTENT_SECURITY_POLICY } },
      // The OIDC popup goes to the provider and back and must still reach window.opener, which a
      // same-origin opener policy on its last page would cut.
      crossOriginOpenerPolicy: false,
      // Set below, only when the request really came over https.
      strictTransportSecurity: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      frameguard: { action: 'deny' },
    });
    // request.protocol believes X-Forwarded-Proto only from the proxies in TRUST_PROXY.
    fastify.addHook('onRequest', async (request, reply) => {
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_HEADER);
    });
  },
  { name: 'helmet' },
);
