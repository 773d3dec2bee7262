/**
 * Which failures mean "the database cannot be reached right now" (answer 503 and let the client
 * retry) as opposed to a bug or a bad query (500). pg reports them in three ways: a Node socket
 * error code, a PostgreSQL SQLSTATE, or a plain Error with a known message.
 */

/** Thrown without asking the database: too many requests already wait for a connection. */
export class DatabaseUnavailableError extends Error {
  readonly code = 'DATABASE_UNAVAILABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a server that is going away, starting, overloaded or cancelling our statement. */
const SQLSTATES = new Set([
  '57P01', // admin_shutdown: a restart or failover terminated the connection
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting up or in recovery
  '57P05', // idle_session_timeout
  '57014', // query_canceled: statement_timeout fired (an overloaded or locked database)
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
  '25006', // read_only_sql_transaction: a write reached a standby during failover
]);

/** pg's own messages for a connection that died or never came. */
const PG_MESSAGES = [
  // "… unexpectedly", "… due to connection timeout"
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
];

function isUnavailableItself(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || SQLSTATES.has(code)) return true;
    // Class 08: connection exception (08000, 08001, 08003, 08004, 08006, 08P01...).
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return typeof message === 'string' && PG_MESSAGES.some((known) => message.startsWith(known));
}

/** True when `error`, or an error it wraps (cause, AggregateError), says the database is unreachable. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  if (isUnavailableItself(error)) return true;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (isDatabaseUnavailable(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
