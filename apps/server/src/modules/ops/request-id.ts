import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What a proxy's or client's X-Request-Id may look like to be kept: short, and nothing that could forge a log line. */
const ACCEPTED_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * The id of a request in every log line it causes: the X-Request-Id a proxy in front (Caddy, nginx, a load
 * balancer) already gave it, so one request is followed across both logs, or a new UUID.
 */
export function requestIdOf(req: IncomingMessage): string {
  return requestIdFrom(req.headers['x-request-id']);
}

/** The id of a request whose X-Request-Id header is `given` (the socket fast path reads headers itself). */
export function requestIdFrom(given: string | string[] | undefined): string {
  return typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID();
}
