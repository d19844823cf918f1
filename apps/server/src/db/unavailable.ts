import { AppError } from '../errors';

/**
 * Whether an error means the database could not be reached or dropped the connection, rather than refused a
 * statement: the server is down, restarting or recovering (the embedded one is started again within a second or two
 * by its watchdog), or ended this connection (pg_terminate_backend, a fast shutdown). Such a request is answered 503
 * with Retry-After, as a storage outage is; its transaction was rolled back by the server when the connection went.
 * Drizzle wraps the driver's error, so the chain of causes is walked.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let cause = err, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (isOutage(cause as { code?: unknown; syscall?: unknown; message?: unknown })) return true;
  }
  return false;
}

/**
 * SQLSTATE classes and codes of an unreachable server: 08 connection exceptions; 57P01 admin shutdown (terminated by
 * an administrator, or a fast shutdown), 57P02 crash shutdown (another backend crashed), 57P03 cannot connect now
 * (starting up, shutting down, recovering); 53300 too many connections (every process reconnecting at once).
 */
const OUTAGE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket failures of connecting to, or talking with, the server (TCP or its Unix socket). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** node-postgres's own errors for a connection that ended or broke, which carry no code. */
const DRIVER_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect)/;

function isOutage(err: { code?: unknown; syscall?: unknown; message?: unknown }): boolean {
  const code = typeof err.code === 'string' ? err.code : '';
  if (OUTAGE_CODES.has(code) || code.startsWith('08')) return true;
  // A missing Unix socket (ENOENT) counts only when connecting: a missing file elsewhere is no outage.
  if (err.syscall === 'connect' && (code === 'ENOENT' || SOCKET_CODES.has(code))) return true;
  if (SOCKET_CODES.has(code) && (err.syscall === 'read' || err.syscall === 'write')) return true;
  return typeof err.message === 'string' && DRIVER_MESSAGES.test(err.message);
}

/** Seconds a client is asked to wait: about as long as the embedded server's restart, or a managed one's failover. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The answer to a request the database could not serve: a retryable 503, its cause kept for the log. */
export class DatabaseUnavailableError extends AppError {
  constructor(cause: unknown) {
    super(503, { message: 'The database is unreachable at the moment; nothing was changed, try again shortly' }, { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
    this.cause = cause;
  }
}
