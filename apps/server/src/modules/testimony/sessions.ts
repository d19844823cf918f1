import { sodium } from './crypto';

/**
 * The intake private keys a reviewer unlocked, kept in this process's memory only, by session (the token's `sid`,
 * else its user and issue time), and forgotten at sign-out, after the idle time-out, or when the process stops.
 * Never written anywhere: several server processes each need their own unlock.
 */
export class UnlockedSessions {
  private readonly sessions = new Map<string, { userId: string; keys: Map<string, Uint8Array>; lastUsed: number }>();

  constructor(
    private readonly idleMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  set(session: string, userId: string, keys: Map<string, Uint8Array>): void {
    this.forget(session);
    this.sessions.set(session, { userId, keys, lastUsed: this.now() });
  }

  /** The session's keys (and the idle clock restarted), or null when locked or timed out. */
  keys(session: string, userId: string): Map<string, Uint8Array> | null {
    this.sweep();
    const entry = this.sessions.get(session);
    if (!entry || entry.userId !== userId) return null;
    entry.lastUsed = this.now();
    return entry.keys;
  }

  forget(session: string): void {
    const entry = this.sessions.get(session);
    if (!entry) return;
    this.sessions.delete(session);
    void sodium().then((s) => entry.keys.forEach((key) => s.memzero(key)));
  }

  /** Forgets every session of a user (their reviewing withdrawn, their account deactivated). */
  forgetUser(userId: string): void {
    for (const [session, entry] of this.sessions) if (entry.userId === userId) this.forget(session);
  }

  forgetAll(): void {
    for (const session of [...this.sessions.keys()]) this.forget(session);
  }

  private sweep(): void {
    const now = this.now();
    for (const [session, entry] of this.sessions) if (now - entry.lastUsed > this.idleMs) this.forget(session);
  }
}
