/**
 * Reads accounts by id, one statement for all the requests that ask within one turn of the event loop.
 *
 * Every signed-in request reads its account, so that a deactivation, a role change or a password reset takes effect
 * on the very next request (see auth.ts). Read one by one, that statement cost a signed-in list page about a quarter
 * of its speed (the database's work and this process's driver work per statement). Under load several requests
 * arrive in the same turn; they share one statement, which starts after every one of them arrived, so none can be
 * answered from an account older than its arrival: revocation stays immediate.
 */
export class AccountReads<Account extends { id: string }> {
  private waiting = new Map<string, { resolve: (account: Account | undefined) => void; reject: (err: unknown) => void }[]>();
  private scheduled = false;

  /** `readMany`: the accounts among `ids` (each one a UUID, none repeated); those not found are left out. */
  constructor(private readonly readMany: (ids: string[]) => Promise<Account[]>) {}

  /** The account `id` (a UUID) as the next statement reads it, or undefined when there is none. */
  read(id: string): Promise<Account | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(id);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(id, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        // After the I/O of this turn: every request parsed in it has asked by then.
        setImmediate(() => void this.readWaiting());
      }
    });
  }

  private async readWaiting(): Promise<void> {
    const batch = this.waiting;
    this.waiting = new Map();
    this.scheduled = false;
    try {
      const found = new Map((await this.readMany([...batch.keys()])).map((account) => [account.id, account]));
      for (const [id, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.get(id));
    } catch (err) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(err);
    }
  }
}
