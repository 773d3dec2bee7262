import { ErrorBodySchema as ErrorBody, OidcCallbackQuerySchema, OidcPopupPageSchema as HtmlPage } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import {
  createFlowCookieCodec,
  OIDC_FLOW_COOKIE,
  OIDC_FLOW_COOKIE_PATH,
  OIDC_FLOW_TTL_SECONDS,
} from '../../../../features/auth/oidc-flow-cookie.js';
import { oidcPopupPage, type OidcPopupMessage } from '../../../../features/auth/oidc-popup-page.js';
import { createOidcClient, OidcSignInError, userIdForOidcProfile } from '../../../../features/auth/oidc.js';
import { perIpRateLimit } from '../../../../features/auth/throttle.js';
import { signIn } from '../../../../features/sessions/sessions.js';

/**
 * Social sign-in in a popup: /start sends the popup to the provider (Google in production, the
 * local OpenID provider in development), /callback finishes the authorization-code flow with PKCE
 * and tells the shop window the result.
 */
const oidcRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { config, db } = fastify;
  const oidc = config.oidc ? createOidcClient(config.oidc) : null;
  const flowCookie = createFlowCookieCodec(config.jwtSecret);
  const shopOrigin = new URL(config.publicUrl).origin;
  const cookieOptions = {
    httpOnly: true,
    // Lax: the provider's redirect back to /callback is a top-level navigation from its site.
    sameSite: 'lax' as const,
    secure: config.publicUrl.startsWith('https:'),
    path: OIDC_FLOW_COOKIE_PATH,
  };

  function popupResult(reply: FastifyReply, statusCode: number, result: Omit<OidcPopupMessage, 'type'>) {
    const page = oidcPopupPage(shopOrigin, { type: 'boatshop:oidc', ...result });
    return reply
      .code(statusCode)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', page.contentSecurityPolicy)
      .send(page.html);
  }

  fastify.get(
    '/start',
    {
      config: perIpRateLimit(config.authRateLimitPerMinute),
      schema: {
        summary: 'Open in a popup: redirects to the OpenID provider',
        tags: ['auth'],
        response: { 302: Type.Null(), 502: HtmlPage, 503: HtmlPage },
      },
    },
    async (request, reply) => {
      if (!oidc) return popupResult(reply, 503, { ok: false, message: 'Social sign-in is not available.' });
      let authorization;
      try {
        authorization = await oidc.authorizationUrl();
      } catch (err) {
        request.log.error({ err, issuer: oidc.provider }, 'OpenID provider discovery failed');
        return popupResult(reply, 502, { ok: false, message: 'The sign-in provider cannot be reached. Try again later.' });
      }
      reply.setCookie(OIDC_FLOW_COOKIE, flowCookie.encode(authorization.flow), { ...cookieOptions, maxAge: OIDC_FLOW_TTL_SECONDS });
      return reply.redirect(authorization.url.href, 302);
    },
  );

  fastify.get(
    '/callback',
    {
      schema: {
        summary: "The provider's redirect target: signs in, then tells the shop window and closes",
        tags: ['auth'],
        querystring: OidcCallbackQuerySchema,
        // 400 is also the usual error body, when the query is not one the provider would send.
        response: { 200: HtmlPage, 400: Type.Union([HtmlPage, ErrorBody]), 503: HtmlPage },
      },
    },
    async (request, reply) => {
      if (!oidc) return popupResult(reply, 503, { ok: false, message: 'Social sign-in is not available.' });
      // One attempt per flow cookie: whatever happens next, it is spent.
      const flow = flowCookie.decode(request.cookies[OIDC_FLOW_COOKIE]);
      reply.clearCookie(OIDC_FLOW_COOKIE, cookieOptions);
      if (!flow)
        return popupResult(reply, 400, { ok: false, message: 'This sign-in took too long or was started elsewhere. Please try again.' });

      const query = new URL(request.url, 'http://callback.invalid').search;
      let userId: string;
      try {
        const profile = await oidc.profile(query, flow);
        userId = await userIdForOidcProfile(db, oidc.provider, profile);
      } catch (err) {
        if (err instanceof OidcSignInError) return popupResult(reply, 400, { ok: false, message: err.message });
        // A cancelled chooser, a replayed code or a wrong state all end here; the log says which.
        request.log.warn({ err }, 'OpenID sign-in failed');
        return popupResult(reply, 400, { ok: false, message: 'Sign-in was cancelled or could not be completed.' });
      }

      await signIn(request, reply, userId);
      return popupResult(reply, 200, { ok: true });
    },
  );
};

export default oidcRoutes;
