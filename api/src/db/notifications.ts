import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/**
 * LISTEN on one channel for as long as the app runs. A subscriber must assume it missed
 * notifications whenever `listening` was false: `onLost` says it stopped, `onListening` says it
 * (re)started, and what happened in between went unheard.
 */
export interface ChannelHandlers {
  onNotification(payload: string): void;
  onListening(): void;
  onLost(error: unknown): void;
}

export interface ChannelListener {
  readonly listening: boolean;
  close(): Promise<void>;
}

export interface ReconnectDelays {
  firstMs: number;
  maxMs: number;
}

const DEFAULT_DELAYS: ReconnectDelays = { firstMs: 250, maxMs: 10_000 };

/** How the listening connection finds out that it is dead. */
export interface Liveness {
  /** give up connecting, and on a heartbeat's answer, after this long */
  timeoutMs: number;
  /**
   * How often to ask the server something. A dead network or a blackholed failover raises no
   * error on an idle connection for hours (TCP keepalive), and meanwhile nothing is heard.
   */
  heartbeatMs: number;
}

const DEFAULT_LIVENESS: Liveness = { timeoutMs: 2_000, heartbeatMs: 5_000 };

/**
 * PostgreSQL: a dedicated `pg.Client` outside the pool (a pooled connection would be handed to
 * queries and recycled), reconnecting with a doubling delay after an error or a dropped
 * connection. `start()` settles after the first attempt, successful or not.
 */
export class PostgresChannelListener implements ChannelListener {
  private client: pg.Client | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;
  listening = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly handlers: ChannelHandlers,
    private readonly log: FastifyBaseLogger,
    private readonly delays: ReconnectDelays = DEFAULT_DELAYS,
    private readonly liveness: Liveness = DEFAULT_LIVENESS,
  ) {}

  start(): Promise<void> {
    return this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    // keepAlive: a connection that silently died (failover, NAT timeout) is noticed and replaced.
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      keepAlive: true,
      application_name: `listen:${this.channel}`,
      connectionTimeoutMillis: this.liveness.timeoutMs,
      query_timeout: this.liveness.timeoutMs,
    });
    this.client = client;
    let lost = false;
    const lose = (error: unknown) => {
      if (lost) return;
      lost = true;
      this.listening = false;
      this.stopHeartbeat();
      if (this.client === client) this.client = null;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (this.closed) return;
      this.handlers.onLost(error);
      this.failures += 1;
      const delay = Math.min(this.delays.maxMs, this.delays.firstMs * 2 ** (this.failures - 1));
      this.log.warn({ err: error, channel: this.channel, retryInMs: delay }, 'database notifications lost, reconnecting');
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        void this.connect();
      }, delay);
      this.retryTimer.unref();
    };
    client.on('error', lose);
    client.on('end', () => lose(new Error('the listening connection ended')));
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.handlers.onNotification(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(this.channel)}`);
    } catch (error) {
      lose(error);
      return;
    }
    if (lost) return;
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    if (this.failures > 0) this.log.info({ channel: this.channel }, 'database notifications back');
    this.failures = 0;
    this.listening = true;
    this.handlers.onListening();
    let beating = false;
    this.heartbeatTimer = setInterval(() => {
      // One at a time: an unanswered heartbeat fails on its own timeout.
      if (beating) return;
      beating = true;
      client.query('select 1').then(() => {
        beating = false;
      }, lose);
    }, this.liveness.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    this.stopHeartbeat();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => {});
  }
}

/** PGlite: one in-process database, so its own `listen` hears every write; nothing to reconnect. */
export class PGliteChannelListener implements ChannelListener {
  private unlisten: (() => Promise<void>) | null = null;
  listening = false;

  constructor(
    private readonly pglite: PGlite,
    private readonly channel: string,
    private readonly handlers: ChannelHandlers,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.pglite.listen(this.channel, (payload) => this.handlers.onNotification(payload));
    this.listening = true;
    this.handlers.onListening();
  }

  async close(): Promise<void> {
    this.listening = false;
    const unlisten = this.unlisten;
    this.unlisten = null;
    if (unlisten && !this.pglite.closed) await unlisten();
  }
}
