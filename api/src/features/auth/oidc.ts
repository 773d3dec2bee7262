import type { Kysely, Transaction } from 'kysely';
import * as client from 'openid-client';
import type { OidcConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import {
  findUserByEmail,
  findUserByExternalIdentity,
  insertUser,
  isUniqueViolation,
  linkExternalIdentity,
  unlinkUnverifiedIdentities,
  updatePasswordHash,
} from '../users/users.repository.js';
import { revokeUserSessions } from '../sessions/sessions.js';
import { markEmailVerified } from './email-verification.js';
import { spendOutstandingResetTokens } from './password-reset.js';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What the browser keeps between /oidc/start and /oidc/callback, in a signed short-lived cookie. */
export interface OidcFlow {
  verifier: string;
  state: string;
  nonce: string;
}

export interface OidcProfile {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
}

export interface OidcClient {
  /** The issuer: (issuer, sub) names a person for good. */
  readonly provider: string;
  authorizationUrl(): Promise<{ url: URL; flow: OidcFlow }>;
  /** Exchanges the code (checking state, nonce and PKCE) and returns who signed in. */
  profile(callbackQuery: string, flow: OidcFlow): Promise<OidcProfile>;
}

export class OidcSignInError extends Error {
  override readonly name = 'OidcSignInError';
}

/**
 * An OpenID Connect relying party for one issuer, discovered on first use and again after a
 * failed discovery (the provider may simply not have been up yet).
 */
export function createOidcClient(config: OidcConfig): OidcClient {
  const issuer = new URL(config.issuer);
  // Plain http only for a provider on this machine: the local dev provider, never a real one.
  const insecure = issuer.protocol === 'http:' && LOCAL_HOSTS.has(issuer.hostname);
  let discovered: Promise<client.Configuration> | undefined;

  function configuration(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(
        issuer,
        config.clientId,
        config.clientSecret,
        undefined,
        insecure ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  }

  return {
    provider: config.issuer,

    async authorizationUrl() {
      const flow: OidcFlow = { verifier: client.randomPKCECodeVerifier(), state: client.randomState(), nonce: client.randomNonce() };
      const url = client.buildAuthorizationUrl(await configuration(), {
        redirect_uri: config.redirectUri,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
        // As Google's own button does: always let the person pick which account signs in.
        prompt: 'select_account',
      });
      return { url, flow };
    },

    async profile(callbackQuery, flow) {
      const oidc = await configuration();
      // The redirect URI the provider saw, with the query it sent back: openid-client derives the
      // token request's redirect_uri from it, and the API may sit behind a proxy with another host.
      const currentUrl = new URL(config.redirectUri);
      currentUrl.search = callbackQuery;
      const tokens = await client.authorizationCodeGrant(oidc, currentUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
      });
      const claims = tokens.claims();
      if (!claims) throw new OidcSignInError('The provider sent no ID token.');
      // Google puts the e-mail in the ID token; a provider that conforms strictly puts it in userinfo only.
      const info = typeof claims.email === 'string' ? claims : await client.fetchUserInfo(oidc, tokens.access_token, claims.sub);
      if (typeof info.email !== 'string' || info.email === '') {
        throw new OidcSignInError('The provider did not share your e-mail address.');
      }
      return {
        subject: claims.sub,
        email: info.email,
        emailVerified: info.email_verified === true,
        name: typeof info.name === 'string' && info.name.trim() !== '' ? info.name.trim() : null,
      };
    },
  };
}

async function findOrCreateUser(db: Kysely<Database>, provider: string, profile: OidcProfile): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const linked = await findUserByExternalIdentity(trx, provider, profile.subject);
    if (linked) return linked.id;

    const existing = await findUserByEmail(trx, profile.email);
    if (existing) {
      // Only an address the provider has verified may open an account someone registered here.
      if (!profile.emailVerified) {
        throw new OidcSignInError('An account with this e-mail already exists. Log in with your e-mail and password.');
      }
      if (!existing.email_verified) {
        // Nobody ever proved this address to the shop: whoever registered it may be a stranger
        // who pre-created the account to wait for its owner. The provider has now proven who the
        // owner is, so everyone else is shut out before the owner is let in: the password, every
        // session, every pending link and every provider link made on the unproven address go.
        await takeOverUnverifiedAccount(trx, existing.id, profile);
      }
      await linkExternalIdentity(trx, { provider, subject: profile.subject, userId: existing.id, emailVerified: true });
      return existing.id;
    }

    const created = await insertUser(trx, {
      email: profile.email,
      display_name: profile.name ?? profile.email.split('@')[0] ?? profile.email,
      roles: ['user'],
      password_hash: null,
      email_verified: profile.emailVerified,
    });
    await linkExternalIdentity(trx, { provider, subject: profile.subject, userId: created.id, emailVerified: profile.emailVerified });
    return created.id;
  });
}

async function takeOverUnverifiedAccount(trx: Transaction<Database>, userId: string, profile: OidcProfile): Promise<void> {
  await updatePasswordHash(trx, userId, null);
  // The display name, too, was chosen by whoever registered the address.
  if (profile.name) await trx.updateTable('users').set({ display_name: profile.name }).where('id', '=', userId).execute();
  await revokeUserSessions(trx, userId);
  await spendOutstandingResetTokens(trx, userId);
  await unlinkUnverifiedIdentities(trx, userId);
  await markEmailVerified(trx, userId);
}

/**
 * The shop account for a provider sign-in: the one linked before, else the account with the
 * same e-mail when the provider has verified it (now linked; taken over from whoever registered
 * it when the shop never verified it), else a new account with role `user`.
 */
export async function userIdForOidcProfile(db: Kysely<Database>, provider: string, profile: OidcProfile): Promise<string> {
  try {
    return await findOrCreateUser(db, provider, profile);
  } catch (error) {
    // A double click can race two first sign-ins; the loser finds the winner's rows on a second look.
    if (isUniqueViolation(error)) return findOrCreateUser(db, provider, profile);
    throw error;
  }
}
