import { afterEach, describe, expect, it, vi } from 'vitest';
import { JwtService } from '../../src/services/jwt';

const user = { id: '00000000-0000-4000-8000-000000000001', role: 'contributor', firstName: 'Test', lastName: 'Reader', tokenVersion: 3 };

describe('bearer tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('verifies its own tokens, also from the kept verifications, and nothing altered or signed with another secret', async () => {
    const jwt = new JwtService('a test secret of enough length, not a real one', 3600);
    const token = await jwt.sign(user);
    const first = await jwt.verify(token);
    expect(first).toMatchObject({ id: user.id, role: 'contributor', name: 'Test Reader', tv: 3 });
    expect(await jwt.verify(token)).toEqual(first);

    const [header, payload, signature] = token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), role: 'super' })).toString('base64url');
    expect(await jwt.verify(`${header}.${forgedPayload}.${signature}`)).toBeNull();
    const flipped = signature!.at(-2) === 'A' ? 'B' : 'A';
    expect(await jwt.verify(`${header}.${payload}.${signature!.slice(0, -2)}${flipped}${signature!.at(-1)}`)).toBeNull();
    const other = new JwtService('another test secret of enough length, not real', 3600);
    expect(await other.verify(token)).toBeNull();
    // A kept verification is of this service's secret only.
    expect(await other.verify(token)).toBeNull();
  });

  it('refuses a token of its own signing whose account id is not a UUID (accounts are read many per statement)', async () => {
    const jwt = new JwtService('a test secret of enough length, not a real one', 3600);
    expect(await jwt.verify(await jwt.sign({ ...user, id: "1' or '1'='1" }))).toBeNull();
    expect(await jwt.verify(await jwt.sign({ ...user, id: '' }))).toBeNull();
    expect(await jwt.verify(await jwt.sign(user))).not.toBeNull();
  });

  it('refuses a kept token once it has expired', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] });
    const jwt = new JwtService('a test secret of enough length, not a real one', 60);
    const token = await jwt.sign(user);
    expect(await jwt.verify(token)).not.toBeNull();
    vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    expect(await jwt.verify(token)).not.toBeNull();
    vi.setSystemTime(new Date('2026-01-01T00:01:01Z'));
    expect(await jwt.verify(token)).toBeNull();
    vi.setSystemTime(new Date('2026-01-01T00:00:30Z'));
    // Forgotten at its expiry, and verified anew (the clock went back): still its own signature.
    expect(await jwt.verify(token)).not.toBeNull();
  });
});
