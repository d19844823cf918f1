import { describe, expect, it, vi } from 'vitest';
import { AccountReads } from '../src/plugins/account-reads';

interface Account {
  id: string;
  active: boolean;
}

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const NONE = '00000000-0000-4000-8000-00000000000c';

/** Accounts as a database holds them now, and every statement's ids. */
function database() {
  const rows = new Map<string, Account>([
    [A, { id: A, active: true }],
    [B, { id: B, active: true }],
  ]);
  const statements: string[][] = [];
  const readMany = vi.fn(async (ids: string[]) => {
    statements.push(ids);
    // What the statement reads is the state when it starts, not when it ends.
    const found = ids.flatMap((id) => (rows.has(id) ? [{ ...rows.get(id)! }] : []));
    await new Promise((resolve) => setTimeout(resolve, 5));
    return found;
  });
  return { rows, statements, readMany };
}

describe('account reads', () => {
  it('reads the accounts asked for in one turn with one statement, each id once', async () => {
    const db = database();
    const reads = new AccountReads(db.readMany);
    const answers = await Promise.all([reads.read(A), reads.read(B), reads.read(A), reads.read(NONE), reads.read(A)]);
    expect(db.statements).toEqual([[A, B, NONE]]);
    expect(answers.map((account) => account?.id)).toEqual([A, B, A, undefined, A]);
  });

  it('reads a request that arrives after a statement started with a new one, which sees a deactivation in between', async () => {
    const db = database();
    const reads = new AccountReads(db.readMany);
    const first = reads.read(A);
    // The statement for the first request has started (it runs after this turn's I/O) but not finished.
    await new Promise((resolve) => setImmediate(resolve));
    expect(db.statements).toHaveLength(1);
    db.rows.set(A, { id: A, active: false });
    const second = reads.read(A);
    expect((await first)?.active).toBe(true);
    expect((await second)?.active).toBe(false);
    expect(db.statements).toEqual([[A], [A]]);
  });

  it('fails only the requests of a statement that failed', async () => {
    const db = database();
    const reads = new AccountReads(db.readMany);
    db.readMany.mockRejectedValueOnce(new Error('connection lost'));
    const failed = Promise.allSettled([reads.read(A), reads.read(B)]);
    expect((await failed).map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((await reads.read(B))?.id).toBe(B);
  });
});
