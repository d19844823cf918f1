import pino from 'pino';

/**
 * What ends a process it did not mean to end (an error nothing caught, a promise nothing awaited, the failure of an
 * entry point's start) is logged as one JSON line, in the same form and on the same stream as every other line of the
 * site's log (pino, standard output), with the error's chain of causes, so an operator's log collector sees why the
 * process went; then the process exits with 1 for its supervisor to restart it. Written synchronously: the process
 * exits right after.
 */
const fatalLog = pino({ serializers: { err: pino.stdSerializers.errWithCause } }, pino.destination({ fd: 1, sync: true }));

export function exitFatally(err: unknown, message: string): never {
  fatalLog.fatal({ err: err instanceof Error ? err : new Error(String(err)) }, message);
  process.exit(1);
}

/** From the start of an entry point: every error no code handles ends the process through exitFatally. */
export function logFatalErrors(): void {
  process.on('uncaughtException', (err, origin) =>
    exitFatally(err, origin === 'unhandledRejection' ? 'a promise failed and nothing handled it; the process stops' : 'an error nothing handled; the process stops'),
  );
}
