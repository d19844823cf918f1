import { createHmac, hkdfSync } from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib/v1';

type Payload = Exclude<Parameters<typeof verifySolution>[0], string>;
import { httpError } from '../../errors';
import { RateLimit, type CounterStore } from '../users/rate-limiter';

/**
 * Abuse control without third parties: ALTCHA's proof of work (each solution accepted once) and rate limits keyed
 * by a keyed hash of the sender's address, never the address. The hash key changes with each window, and a
 * counter ends with its window, so the hashes of a past window link to nothing.
 */

const HOUR = 3600_000;
const CHALLENGE_MINUTES = 20;

export const LIMITS = {
  /** With the proof of work. */
  verified: { max: 20, windowMs: HOUR },
  /** Without JavaScript: no proof of work, so fewer. */
  unverified: { max: 4, windowMs: HOUR },
  wrongReceipts: { max: 10, windowMs: HOUR },
  challenges: { max: 200, windowMs: HOUR },
};

export class TestimonyAbuse {
  private readonly altchaKey: string;
  readonly verified: RateLimit;
  readonly unverified: RateLimit;
  readonly wrongReceipts: RateLimit;
  readonly challenges: RateLimit;

  constructor(
    private readonly secret: string,
    private readonly store: CounterStore,
    private readonly now: () => number = Date.now,
  ) {
    this.altchaKey = Buffer.from(hkdfSync('sha256', secret, 'testimony', 'altcha-hmac', 32)).toString('base64url');
    this.verified = new RateLimit(store, 'submit', LIMITS.verified);
    this.unverified = new RateLimit(store, 'submit-nojs', LIMITS.unverified);
    this.wrongReceipts = new RateLimit(store, 'receipt', LIMITS.wrongReceipts);
    this.challenges = new RateLimit(store, 'challenge', LIMITS.challenges);
  }

  /** The sender as the limits know it: an HMAC of the address under a key of this hour only. */
  subject(address: string, windowMs = HOUR): string {
    const window = Math.floor(this.now() / windowMs);
    const key = hkdfSync('sha256', this.secret, String(window), 'testimony-rate-limit', 32);
    return createHmac('sha256', Buffer.from(key)).update(address).digest('base64url').slice(0, 22);
  }

  challenge() {
    return createChallenge({
      hmacKey: this.altchaKey,
      algorithm: 'SHA-256',
      maxnumber: 50_000,
      expires: new Date(this.now() + CHALLENGE_MINUTES * 60_000),
    });
  }

  /** Verifies the base64 JSON solution and spends it: a second use of one solution is refused. */
  async spend(field: string | undefined): Promise<void> {
    if (!field) throw httpError.badRequest({ altcha: 'The proof of work is missing' });
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(field, 'base64').toString('utf8')) as Payload;
    } catch {
      throw httpError.badRequest({ altcha: 'The proof of work is not readable' });
    }
    const ok = await verifySolution(payload, this.altchaKey, true).catch(() => false);
    if (!ok || typeof payload.signature !== 'string') throw httpError.badRequest({ altcha: 'The proof of work is wrong or expired' });
    const used = await this.store.increment(`altcha-used:${payload.signature}`, (CHALLENGE_MINUTES + 1) * 60_000);
    if (used.count > 1) throw httpError.badRequest({ altcha: 'This proof of work was already used' });
  }
}
