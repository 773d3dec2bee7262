import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CANARY_COOKIE, isVisitorSeed, newVisitorSeed } from '@boatshop/release-registry';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Env = Record<string, string | undefined>;

const COOKIE_MAX_AGE_S = 30 * 24 * 3600;
/** A release's mark in the cookie: short, and names nothing about the visitor. */
const TAG = /^[0-9a-f]{10}$/;
const MAX_TAGS = 24;

/**
 * One visitor of the shop while a canary runs, as the shell's server issued and signed them: the
 * random seed that decides their side of each canary, the releases it served them (in /remotes.json
 * or a page) and the releases whose page load it counted. Nobody can choose a seed, claim a release
 * they were never served, or be counted twice for one release by reloading (ADR 0024).
 */
export interface CanaryVisitor {
  seed: string;
  served: Set<string>;
  counted: Set<string>;
}

/** The mark of `remote`'s `release` in a visitor's cookie. */
export function releaseTag(remote: string, release: string): string {
  return createHash('sha256').update(`${remote}\0${release}`).digest('hex').slice(0, 10);
}

/**
 * The canary cookie's key, the same on every replica: CANARY_COOKIE_SECRET (at least 32
 * characters), else one derived from the operator's preview secret (REMOTES_PREVIEW_SECRET or the
 * registry's preview-secret file, which `npm run promote` creates before any canary exists), else a
 * key of this process only, with a warning (one shell server alone may use it).
 */
export async function canaryCookieKey(
  env: Env,
  sharedSecret: () => Promise<string | null>,
  warn: (message: string) => void,
): Promise<Buffer> {
  checkCanaryCookieSecret(env);
  if (env.CANARY_COOKIE_SECRET) return Buffer.from(env.CANARY_COOKIE_SECRET, 'utf8');
  const shared = await sharedSecret().catch(() => null);
  if (shared) return createHmac('sha256', shared).update('boatshop canary cookie').digest();
  warn('No CANARY_COOKIE_SECRET nor preview secret: canary cookies are signed with a key of this process; replicas must share one');
  return randomBytes(32);
}

/** Refuses, at start, a CANARY_COOKIE_SECRET too short to sign with. */
export function checkCanaryCookieSecret(env: Env): void {
  const secret = env.CANARY_COOKIE_SECRET;
  if (secret && secret.length < 32) throw new Error('CANARY_COOKIE_SECRET must be at least 32 characters');
}

/** Signs and reads the canary cookie (`boatshop_canary`): base64url of `seed|served|counted|signature`. */
export class CanaryCookies {
  constructor(
    private readonly key: Buffer,
    private readonly secure: boolean,
  ) {}

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  encode(visitor: CanaryVisitor): string {
    const payload = [visitor.seed, [...visitor.served].join('-'), [...visitor.counted].join('-')].join('|');
    return Buffer.from(`${payload}|${this.sign(payload)}`, 'utf8').toString('base64url');
  }

  /** The visitor a cookie value names, or null when it is not one this key signed. */
  decode(value: string | null | undefined): CanaryVisitor | null {
    if (!value || value.length > 1_024 || !/^[A-Za-z0-9_-]+$/.test(value)) return null;
    const parts = Buffer.from(value, 'base64url').toString('utf8').split('|');
    if (parts.length !== 4) return null;
    const [seed, served, counted, signature] = parts as [string, string, string, string];
    const expected = Buffer.from(this.sign(`${seed}|${served}|${counted}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected) || !isVisitorSeed(seed)) return null;
    const tags = (list: string) => new Set(list === '' ? [] : list.split('-').filter((tag) => TAG.test(tag)));
    return { seed, served: tags(served), counted: tags(counted) };
  }

  /**
   * The visitor this exchange is about: the cookie this reply sets already (a visitor given one a
   * moment ago), else the last valid one the request carries; null when neither holds one.
   */
  read(request: FastifyRequest, reply?: FastifyReply): CanaryVisitor | null {
    const given = reply?.getHeader('set-cookie');
    const fromReply = (Array.isArray(given) ? given : given === undefined ? [] : [String(given)]).map((cookie) => cookie.split(';')[0]!);
    const fromRequest = (request.headers.cookie ?? '').split(';');
    for (const pair of [...fromReply.reverse(), ...fromRequest.reverse()]) {
      const [name, ...rest] = pair.trim().split('=');
      if (name !== CANARY_COOKIE) continue;
      const visitor = this.decode(rest.join('='));
      if (visitor) return visitor;
    }
    return null;
  }

  issue(): CanaryVisitor {
    return { seed: newVisitorSeed(), served: new Set(), counted: new Set() };
  }

  /** Sends the visitor's cookie with this reply, in place of one it sets already. */
  write(reply: FastifyReply, visitor: CanaryVisitor): void {
    const cookie = `${CANARY_COOKIE}=${this.encode(visitor)}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; SameSite=Lax; HttpOnly${this.secure ? '; Secure' : ''}`;
    const given = reply.getHeader('set-cookie');
    const others = (Array.isArray(given) ? given : given === undefined ? [] : [String(given)]).filter(
      (value) => !value.startsWith(`${CANARY_COOKIE}=`),
    );
    // Fastify appends every set-cookie it is given: the header is set anew, the others kept.
    reply.removeHeader('set-cookie');
    for (const value of [...others, cookie]) reply.header('set-cookie', value);
  }
}

/**
 * Adds `tag` to one of the visitor's sets, keeping only the tags of releases still live or in canary
 * (`current`), so the cookie stays small. True when the tag is new (the cookie must be sent again).
 */
export function addTag(set: Set<string>, tag: string, current: ReadonlySet<string>): boolean {
  for (const old of set) if (!current.has(old)) set.delete(old);
  if (set.has(tag)) return false;
  set.add(tag);
  while (set.size > MAX_TAGS) set.delete(set.values().next().value as string);
  return true;
}

/**
 * Which failure reports count while a canary runs: one per visitor and release (a reloading visitor
 * or a script is one voice), and at most `perAddress` visitors per client address and release (a
 * script minting visitors from one address is still one or two voices). Per replica, bounded.
 */
export class FailureVotes {
  private readonly voters = new Set<string>();
  private readonly perAddressCounts = new Map<string, number>();

  constructor(private readonly perAddress = 2) {}

  accept(release: string, seed: string, address: string): boolean {
    const voter = `${release}\0${seed}`;
    const place = `${release}\0${address}`;
    if (this.voters.has(voter) || (this.perAddressCounts.get(place) ?? 0) >= this.perAddress) return false;
    if (this.voters.size >= 50_000) {
      this.voters.clear();
      this.perAddressCounts.clear();
    }
    this.voters.add(voter);
    this.perAddressCounts.set(place, (this.perAddressCounts.get(place) ?? 0) + 1);
    return true;
  }
}

/**
 * The proxies whose X-Forwarded-For the shell's server believes, as the API reads TRUST_PROXY:
 * "none", or comma-separated addresses or CIDR ranges; unset: the loopback proxy of `npm run
 * start:cluster` (127.0.0.1, ::1). Behind nginx every visitor then has their own address, for the
 * failure reports' limits.
 */
export function trustedProxies(env: Env): string[] | false {
  const value = env.TRUST_PROXY;
  if (value === undefined) return ['127.0.0.1', '::1'];
  if (value.trim().toLowerCase() === 'none') return false;
  const list = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return list.length > 0 ? list : false;
}
