import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { networkErrorInWords } from './network-errors';

/**
 * Which hosts the capture browser may reach. A cited link is typed by any contributor, so without this rule a record
 * could make the server's browser read the machine itself, the private network or a cloud metadata address, and
 * keep what it saw as an "archive".
 */

/** Addresses that are not the public internet: loopback, private, link-local, unique-local, multicast, unspecified. */
const notPublic = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // unspecified, "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT, shared
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  notPublic.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  notPublic.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 address carries (IPv4-mapped, NAT64, 6to4), or null. */
function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return v4(groups[6]!, groups[7]!); // ::ffff:a.b.c.d
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4(groups[6]!, groups[7]!); // 64:ff9b::/96
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!); // 2002::/16
  return null;
}

/**
 * IPv6 ranges that reach IPv4 hosts through a translator or tunnel of someone's network, checked by hand: node's
 * BlockList matches IPv4 addresses against IPv6 rules of the ::ffff: family, so it cannot hold the first of these.
 */
function translatedOrTunnelled(groups: number[]): boolean {
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return true; // ::ffff:0:a.b.c.d, IPv4-translated (SIIT)
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 1) return true; // 64:ff9b:1::/48, local-use NAT64
  if (groups[0] === 0x2001 && groups[1] === 0) return true; // 2001::/32, Teredo
  return false;
}

/** Eight 16-bit groups of an IPv6 address (with or without a dotted IPv4 tail), or null if it is not one. */
function expandIpv6(address: string): number[] | null {
  let text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(text) !== 6) return null;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  const groups = [...left, ...fill, ...right];
  return groups.length === 8 ? groups : null;
}

/** True for an IP address of the public internet; false for every other address and for anything that is not one. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return !notPublic.check(bare, 'ipv4');
  if (family !== 6) return false;
  const groups = expandIpv6(bare);
  if (!groups || translatedOrTunnelled(groups)) return false;
  const v4 = embeddedIpv4(bare);
  if (v4 !== null) return isPublicAddress(v4);
  return !notPublic.check(bare.replace(/%.*$/, ''), 'ipv6');
}

export class CaptureRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CaptureRefused';
  }
}

interface Resolved {
  /** The address to connect to: the one that was checked, so a second DNS answer cannot swap it. */
  address: string;
  family: 4 | 6;
}

type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * The rule every request of a capture passes: http or https only; the host's addresses all public, unless
 * `host` or `host:port` is in the allow list (which admits a known private server, e.g. in tests).
 */
export class AddressPolicy {
  private readonly allowed: Set<string>;

  constructor(
    allowHosts: string[] = [],
    private readonly resolve: Resolver = systemResolver,
  ) {
    this.allowed = new Set(allowHosts.map((h) => h.trim().toLowerCase()).filter(Boolean));
  }

  /** Throws CaptureRefused for a URL the browser may not load; the checked address otherwise. */
  async checkUrl(raw: string): Promise<Resolved> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new CaptureRefused(`not a valid URL: ${raw.slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new CaptureRefused(`only http and https links are captured, not ${url.protocol.replace(/:$/, '')}`);
    }
    return this.checkHost(url.hostname, Number(url.port || (url.protocol === 'https:' ? 443 : 80)));
  }

  async checkHost(hostname: string, port: number): Promise<Resolved> {
    const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
    const admitted = this.allowed.has(host) || this.allowed.has(`${host}:${port}`) || this.allowed.has(`[${host}]:${port}`);
    const literal = isIP(host);
    let candidates: { address: string; family: number }[];
    if (literal) candidates = [{ address: host, family: literal }];
    else {
      try {
        candidates = await this.resolve(host);
      } catch (err) {
        // Tried again like any other failure: a name that does not resolve now may resolve later (a site moving, a
        // resolver that failed to answer), and a refusal is kept for what the rule itself forbids.
        throw new Error(`the address of ${host} could not be looked up: ${networkErrorInWords(err)}`);
      }
    }
    if (!candidates.length) throw new Error(`the host ${host} has no address`);
    if (!admitted) {
      // Every address must be public: the browser could otherwise be sent to the private one of a mixed answer.
      const blocked = candidates.find((c) => !isPublicAddress(c.address));
      if (blocked) throw new CaptureRefused(`the host ${host} is at ${blocked.address}, which is not a public internet address`);
    }
    const first = candidates[0]!;
    return { address: first.address, family: first.family === 6 ? 6 : 4 };
  }
}
