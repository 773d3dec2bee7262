import { hostname } from 'node:os';
import {
  KNOWN_REMOTES,
  RELEASE_ID,
  canaryVerdict,
  hasCanary,
  inCanary,
  manifestForVisitor,
  mergeTallies,
  PREVIEW_COOKIE,
  verifyPreviewCookie,
  type Preview,
  tallyOf,
  withdrawCanary,
  type EnvironmentState,
  type RegistryStore,
  type Tallies,
  type Tally,
} from '@boatshop/release-registry';
import { readCookie } from '@boatshop/contract/request';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addTag, CanaryCookies, FailureVotes, releaseTag } from './canary-visitors';
import { remotesManifest, type RemotesManifest } from './remotes';

export type Env = Record<string, string | undefined>;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** MF name → registry name (mf_catalog → mf-catalog). */
export const REMOTE_OF_MF_NAME = new Map(Object.entries(KNOWN_REMOTES).map(([remote, mfName]) => [mfName, remote]));

/**
 * The shell's side of the release registry (packages/release-registry), on when REMOTES_REGISTRY
 * names its folder or REGISTRY_STORE=s3 its bucket: /remotes.json and the page data block name, per remote, the release that is
 * live in REMOTES_ENV (default production), or its canary for the visitors whose cookie falls in
 * the canary's share; the published files are served under /releases/ with immutable caching.
 * The environment is re-read at most every REMOTES_REGISTRY_TTL_MS (2 s), so a promotion or a
 * rollback reaches every replica on its next page load. A remote never released there keeps its
 * default URL (REMOTES_MANIFEST or MF_*_URL, see remotes.ts).
 */
export class RemotesRegistry {
  private cached: { state: EnvironmentState; until: number } | null = null;
  private loading: Promise<EnvironmentState> | null = null;
  /** The signed canary cookie (canary-visitors.ts): the server's own seeds and what it served each visitor. */
  private cookiesReady: Promise<CanaryCookies> | null = null;
  /** This replica's page loads and reported failures per remote and release (since it started). */
  private readonly tallies = new Map<string, Tally>();
  /** The other replicas' counts (counts/<env>/*.json), re-read at most every flushMs. */
  private others: { tallies: Tallies; until: number } | null = null;
  private dirty = false;
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly withdrawing = new Set<string>();
  /** One failure per visitor and release counts, and a few visitors per client address. */
  private readonly votes = new FailureVotes();
  /** `<remote>/<release id>` → the route data that release recorded. */
  private readonly recordedRoutes = new Map<string, unknown>();

  constructor(
    private readonly store: RegistryStore,
    private readonly options: {
      environment: string;
      baseUrl: string;
      ttlMs: number;
      env: Env;
      log?: (error: unknown) => void;
      /** Told when a canary is taken out of rotation, and why. */
      warn?: (message: string) => void;
      /** This replica's name in counts/<env>/ (REMOTES_REPLICA_ID, else host name and process id). */
      replica?: string;
      /** At most one write of this replica's counts per flushMs (REMOTES_COUNTS_FLUSH_MS, 5 s). */
      flushMs?: number;
      /** The secret that signs the operator's preview cookie (packages/release-registry/src/preview.ts); none: no preview. */
      previewSecret?: () => Promise<string | null>;
      /** The canary cookie's key (canaryCookieKey), asked for when a canary first needs it. */
      canaryKey: () => Promise<Buffer>;
    },
  ) {}

  /** The canary cookie's signer, made once (its key may come from the registry's preview secret). */
  private cookies(): Promise<CanaryCookies> {
    this.cookiesReady ??= this.options
      .canaryKey()
      .then((key) => new CanaryCookies(key, (this.options.env.PUBLIC_URL ?? '').startsWith('https:')));
    return this.cookiesReady;
  }

  private secret: { value: string | null; until: number } | null = null;

  /**
   * The candidate release the operator's signed preview cookie asks for (the promotion's smoke
   * run), or null: no cookie, or one that is forged, altered, expired or for another environment.
   */
  async previewOf(request: FastifyRequest): Promise<Preview | null> {
    const value = readCookie(request.headers.cookie, PREVIEW_COOKIE);
    if (!value || !this.options.previewSecret) return null;
    if (!this.secret || this.secret.until <= Date.now()) {
      const secret = await this.options.previewSecret().catch((error: unknown) => {
        this.options.log?.(error);
        return null;
      });
      // The CLI creates the secret on the first promotion: look again now and then.
      this.secret = { value: secret, until: Date.now() + 30_000 };
    }
    return verifyPreviewCookie(this.secret.value, value, this.options.environment);
  }

  get replica(): string {
    return this.options.replica ?? defaultReplicaName();
  }

  private get flushMs(): number {
    return this.options.flushMs ?? 5_000;
  }

  /** Counts changed: written within flushMs (one timer, unref'd, so it never holds the process). */
  private markDirty(): void {
    this.dirty = true;
    if (this.flushMs === 0) {
      void this.flush();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.flushMs);
    this.timer.unref();
  }

  /** Writes this replica's counts to the registry, where `npm run releases` and the other replicas read them. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.flushing;
    if (!this.dirty) return;
    this.dirty = false;
    const tallies: Tallies = {};
    for (const [key, tally] of this.tallies) {
      const [remote, release] = key.split('\0') as [string, string];
      (tallies[remote] ??= {})[release] = { ...tally };
    }
    this.flushing = this.store.writeCounts(this.options.environment, this.replica, tallies).then(
      () => {
        this.flushing = null;
      },
      (error: unknown) => {
        this.flushing = null;
        this.dirty = true;
        this.options.log?.(error);
      },
    );
    await this.flushing;
  }

  /** Every replica's counts: the others' as last written, this one's as they are now. */
  private async combined(): Promise<Tallies> {
    if (!this.others || this.others.until <= Date.now()) {
      const tallies = await this.store.readCounts(this.options.environment, { except: this.replica }).catch((error: unknown) => {
        this.options.log?.(error);
        return this.others?.tallies ?? {};
      });
      this.others = { tallies, until: Date.now() + this.flushMs };
    }
    const own: Tallies = {};
    for (const [key, tally] of this.tallies) {
      const [remote, release] = key.split('\0') as [string, string];
      (own[remote] ??= {})[release] = tally;
    }
    return mergeTallies(this.others.tallies, own);
  }

  /** The environment's state, cached; a broken file keeps the last good state (and is logged). */
  async state(): Promise<EnvironmentState> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.state;
    this.loading ??= this.store
      .read(this.options.environment)
      .then(
        (state) => {
          this.cached = { state, until: Date.now() + this.options.ttlMs };
          return state;
        },
        (error: unknown) => {
          if (!this.cached) throw error;
          this.options.log?.(error);
          this.cached = { state: this.cached.state, until: Date.now() + this.options.ttlMs };
          return this.cached.state;
        },
      )
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  /**
   * /remotes.json for this visitor. While a canary runs, a visitor without a cookie this server
   * signed is given one: a random seed (no personal data) that decides, for as long as that canary
   * lasts, which side they are on (a shopper never flips between releases within a visit), and the
   * releases served to them, the only ones they may report failing.
   */
  async manifestFor(request: FastifyRequest, reply: FastifyReply): Promise<RemotesManifest> {
    const [state, defaults] = await Promise.all([this.state(), remotesManifest({ ...this.options.env, REMOTES_REGISTRY: undefined })]);
    let seed: string | null = null;
    if (hasCanary(state)) {
      const cookies = await this.cookies();
      const known = cookies.read(request, reply);
      const visitor = known ?? cookies.issue();
      let changed = !known;
      for (const remote of Object.keys(state.remotes)) {
        const release = this.releaseOf(state, remote, visitor.seed);
        if (release && addTag(visitor.served, releaseTag(remote, release), this.currentTags(state))) changed = true;
      }
      if (changed) cookies.write(reply, visitor);
      seed = visitor.seed;
      reply.header('vary', 'Cookie');
    }
    const manifest: RemotesManifest = { ...defaults, ...manifestForVisitor(state, { baseUrl: this.options.baseUrl, seed }) };
    const preview = await this.previewOf(request);
    if (preview) {
      // The operator's browser only; its loads are not shoppers' and are not counted (countPageLoad).
      manifest[KNOWN_REMOTES[preview.remote]!] = `${this.options.baseUrl}/${preview.remote}/${preview.release}/mf-manifest.json`;
      reply.header('vary', 'Cookie');
    }
    return manifest;
  }

  /**
   * The route data a release recorded, when `manifestUrl` is one of the releases this registry
   * serves (null: it recorded none); undefined for any other URL. Records never change, so each
   * is read once.
   */
  async releaseRoutes(mfName: string, manifestUrl: string): Promise<unknown> {
    const prefix = `${this.options.baseUrl}/`;
    if (!manifestUrl.startsWith(prefix)) return undefined;
    const [remote, id, file, ...rest] = manifestUrl.slice(prefix.length).split('/');
    if (rest.length > 0 || file !== 'mf-manifest.json' || !remote || KNOWN_REMOTES[remote] !== mfName || !RELEASE_ID.test(id ?? '')) {
      return undefined;
    }
    const key = `${remote}/${id}`;
    if (!this.recordedRoutes.has(key)) {
      const record = (await this.store.releases(remote)).find((r) => r.id === id);
      if (!record) return undefined;
      if (this.recordedRoutes.size >= 64) this.recordedRoutes.delete(this.recordedRoutes.keys().next().value as string);
      this.recordedRoutes.set(key, record.routes ?? null);
    }
    return this.recordedRoutes.get(key);
  }

  private tally(remote: string, release: string): Tally {
    const key = `${remote}\0${release}`;
    let tally = this.tallies.get(key);
    if (!tally) {
      tally = { served: 0, failures: 0 };
      this.tallies.set(key, tally);
      // Bounded: only releases live or in canary are counted, a few per remote.
      if (this.tallies.size > 64) this.tallies.delete(this.tallies.keys().next().value as string);
    }
    return tally;
  }

  /** The marks of every release live or in canary now: a visitor's cookie keeps only these. */
  private currentTags(state: EnvironmentState): Set<string> {
    const tags = new Set<string>();
    for (const [remote, entry] of Object.entries(state.remotes)) {
      for (const release of [entry.live?.release, entry.canary?.release]) if (release) tags.add(releaseTag(remote, release));
    }
    return tags;
  }

  /** The release of `remote` this visitor gets, or null when the registry does not serve it. */
  private releaseOf(state: EnvironmentState, remote: string, seed: string | null): string | null {
    const entry = state.remotes[remote];
    if (!entry?.live) return null;
    return inCanary(seed, remote, entry.canary) ? entry.canary!.release : entry.live.release;
  }

  /**
   * A page render of a remote (its MF name) released here counts as a load of the visitor's
   * release. While a canary runs, once per visitor and release (the signed cookie, or the one
   * manifestFor just gave them, records it): reloading is one visitor, not evidence. An operator's
   * preview (the smoke run at promotion) is not a shopper's load and is not counted.
   */
  async countPageLoad(request: FastifyRequest, reply: FastifyReply, mfName: string | null): Promise<void> {
    const remote = mfName ? REMOTE_OF_MF_NAME.get(mfName) : undefined;
    if (!remote) return;
    if (await this.previewOf(request)) return;
    const state = await this.state();
    const cookies = hasCanary(state) ? await this.cookies() : null;
    const visitor = cookies?.read(request, reply) ?? null;
    if (cookies && !visitor) return;
    const release = this.releaseOf(state, remote, visitor?.seed ?? null);
    if (!release) return;
    if (cookies && visitor) {
      if (!addTag(visitor.counted, releaseTag(remote, release), this.currentTags(state))) return;
      cookies.write(reply, visitor);
    }
    this.tally(remote, release).served += 1;
    this.markDirty();
  }

  /**
   * A failure the visitor's shell reported for one remote (it did not load, or its error boundary
   * caught an error): counted against the release this visitor gets. A canary failing clearly more
   * often than the live release (canaryVerdict) is withdrawn at once and the reason logged and
   * recorded for `npm run releases`.
   */
  async recordFailure(request: FastifyRequest, mfName: string): Promise<void> {
    const remote = REMOTE_OF_MF_NAME.get(mfName);
    if (!remote || (await this.previewOf(request))) return;
    const state = await this.state();
    const entry = state.remotes[remote];
    const visitor = hasCanary(state) ? (await this.cookies()).read(request) : null;
    const release = this.releaseOf(state, remote, visitor?.seed ?? null);
    if (!entry || !release) return;
    if (entry.canary) {
      // Only a visitor this server served that release to may report it failing, once, and only a
      // few visitors per client address count.
      if (!visitor || !visitor.served.has(releaseTag(remote, release))) return;
      if (!this.votes.accept(release, visitor.seed, request.ip)) return;
    }
    this.tally(remote, release).failures += 1;
    this.markDirty();
    if (!entry.canary || !entry.live) return;
    const canary = entry.canary.release;
    // Judged on every replica's counts: a canary failing for visitors spread over several
    // replicas is seen as soon as their sum shows it.
    const counts = await this.combined();
    const verdict = canaryVerdict(tallyOf(counts, remote, canary), tallyOf(counts, remote, entry.live.release));
    if (!verdict || this.withdrawing.has(canary)) return;
    this.withdrawing.add(canary);
    try {
      const withdrawn = await withdrawCanary(this.store, {
        environment: this.options.environment,
        remote,
        release: canary,
        reason: verdict,
      });
      this.cached = null;
      if (withdrawn) this.options.warn?.(`canary ${remote} ${canary} withdrawn from ${this.options.environment}: ${verdict}`);
    } finally {
      this.withdrawing.delete(canary);
    }
  }
}

/** `<host name>-<process id>`: unique per shell process, so two replicas never write one file. */
export function defaultReplicaName(): string {
  return `${hostname()}-${process.pid}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 64);
}
