import { Signer } from '@fastify/cookie';
import type { OidcFlow } from './oidc.js';

export const OIDC_FLOW_COOKIE = 'oidc_flow';
/** Only the sign-in routes need it; the rest of the shop never sees it. */
export const OIDC_FLOW_COOKIE_PATH = '/api/auth/oidc';
/** Long enough to pick an account, short enough that a stolen cookie is soon worthless. */
export const OIDC_FLOW_TTL_SECONDS = 600;

/**
 * The flow's secrets (PKCE verifier, state, nonce) travel in a signed cookie rather than in
 * server memory, so any replica can finish a sign-in another one started.
 */
export function createFlowCookieCodec(jwtSecret: string) {
  // A key of its own: a flow cookie can never pass for anything else signed with the JWT secret.
  const signer = new Signer(`${jwtSecret}:oidc-flow`);
  return {
    encode(flow: OidcFlow, now = Date.now()): string {
      return signer.sign(JSON.stringify({ ...flow, expiresAt: now + OIDC_FLOW_TTL_SECONDS * 1000 }));
    },
    /** The flow, or undefined when the cookie is missing, forged or too old. */
    decode(value: string | undefined, now = Date.now()): OidcFlow | undefined {
      if (!value) return undefined;
      const unsigned = signer.unsign(value);
      if (!unsigned.valid || unsigned.value === null) return undefined;
      try {
        const parsed = JSON.parse(unsigned.value) as Partial<OidcFlow & { expiresAt: number }>;
        if (typeof parsed.expiresAt !== 'number' || parsed.expiresAt < now) return undefined;
        if (typeof parsed.verifier !== 'string' || typeof parsed.state !== 'string' || typeof parsed.nonce !== 'string') {
          return undefined;
        }
        return { verifier: parsed.verifier, state: parsed.state, nonce: parsed.nonce };
      } catch {
        return undefined;
      }
    },
  };
}
