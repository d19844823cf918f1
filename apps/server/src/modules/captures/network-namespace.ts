import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The capture browser in a network namespace of its own, where the only interface is a loopback of its own: a page's
 * WebRTC, QUIC or any other UDP or TCP it could open around the proxy has nowhere to go. The proxy stays in the
 * server's namespace (it must reach the sites); a forwarder inside the browser's namespace carries each capture's
 * proxy port over a Unix socket, which a network namespace does not separate (it is a file).
 *
 * Needs `unshare` and `ip` (util-linux, iproute2) and the right to make a namespace: root, or unprivileged user
 * namespaces. Where that is missing the browser runs as before, and the init script that removes WebRTC from every
 * page is the guard left (`namespaceSupport` says why).
 */

/** Runs in the namespace (`node -e`): a control socket on which the server asks for ports forwarded to its proxies. */
const FORWARDER = String.raw`
const net = require('node:net');
const listeners = new Map();
const control = net.createServer((conn) => {
  let buffered = '';
  conn.on('data', (chunk) => {
    buffered += chunk;
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const [verb, arg] = buffered.slice(0, at).split(' ');
      buffered = buffered.slice(at + 1);
      if (verb === 'open') {
        const server = net.createServer((inner) => {
          const outer = net.connect(arg);
          inner.pipe(outer).pipe(inner);
          inner.on('error', () => outer.destroy());
          outer.on('error', () => inner.destroy());
        });
        server.on('error', (err) => conn.write('error ' + err.code + '\n'));
        server.listen(0, '127.0.0.1', () => {
          listeners.set(String(server.address().port), server);
          conn.write('port ' + server.address().port + '\n');
        });
      } else if (verb === 'close') {
        listeners.get(arg)?.close();
        listeners.delete(arg);
        conn.write('closed ' + arg + '\n');
      }
    }
  });
  // The server is gone or closed the browser: nothing left to forward.
  conn.on('close', () => process.exit(0));
  conn.on('error', () => process.exit(0));
});
control.listen(process.argv[1]);
`;

/** Starts the forwarder (its fds 3 and 4 closed: they are Playwright's pipe to the browser) and execs the browser. */
const WRAPPER = `#!/bin/sh
# Written by the site for its capture browser (modules/captures/network-namespace.ts); removed when it stops.
exec unshare $CAPTURE_UNSHARE_FLAGS -- /bin/sh -c '
ip link set lo up || exit 97
"$CAPTURE_NODE" -e "$CAPTURE_FORWARDER" "$CAPTURE_CONTROL_SOCKET" </dev/null 3>&- 4>&- &
exec "$CAPTURE_BROWSER" "$@"' capture-browser "$@"
`;

function unshareFlags(): string[] {
  // Root makes the namespace directly; anyone else through a user namespace of their own, where they are root.
  return process.getuid?.() === 0 ? ['--net'] : ['--user', '--map-root-user', '--net'];
}

let support: { ok: true } | { ok: false; reason: string } | null = null;

/** Whether a browser can be started in a namespace of its own here; the reason when not. Probed once per process. */
export function namespaceSupport(): { ok: true } | { ok: false; reason: string } {
  if (support) return support;
  if (process.platform !== 'linux') return (support = { ok: false, reason: `network namespaces are Linux only (this is ${process.platform})` });
  const probe = spawnSync('unshare', [...unshareFlags(), '--', 'ip', 'link', 'set', 'lo', 'up'], { encoding: 'utf8', timeout: 10_000 });
  if (probe.error) return (support = { ok: false, reason: `unshare could not run (${(probe.error as NodeJS.ErrnoException).code ?? probe.error.message})` });
  if (probe.status !== 0) return (support = { ok: false, reason: `unshare ${unshareFlags().join(' ')} failed: ${(probe.stderr || `exit ${probe.status}`).trim().slice(0, 300)}` });
  return (support = { ok: true });
}

/** A browser's namespace: the wrapper Playwright starts instead of the browser, and the forwarder's control socket. */
export class BrowserNamespace {
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), 'capture-netns-'));
  private readonly controlPath = path.join(this.dir, 'control.sock');
  private control: net.Socket | null = null;
  private replies: ((line: string) => void)[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private sockets = 0;
  readonly executablePath = path.join(this.dir, 'browser');

  constructor(private readonly browserPath: string) {
    writeFileSync(this.executablePath, WRAPPER);
    chmodSync(this.executablePath, 0o700);
  }

  /** The environment the wrapper reads. */
  env(): Record<string, string> {
    return {
      CAPTURE_UNSHARE_FLAGS: unshareFlags().join(' '),
      CAPTURE_NODE: process.execPath,
      CAPTURE_FORWARDER: FORWARDER,
      CAPTURE_CONTROL_SOCKET: this.controlPath,
      CAPTURE_BROWSER: this.browserPath,
    };
  }

  /** Connects to the forwarder, which starts beside the browser; a few seconds at most. */
  async connect(): Promise<void> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        this.control = await new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(this.controlPath, () => resolve(socket));
          socket.once('error', reject);
        });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`the capture browser's network namespace did not start: ${(err as Error).message}`);
        await sleep(50);
      }
    }
    let buffered = '';
    this.control.on('data', (chunk) => {
      buffered += chunk.toString();
      for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
        this.replies.shift()?.(line);
      }
    });
    this.control.on('error', () => {});
    this.control.on('close', () => {
      this.control = null;
      for (const reply of this.replies.splice(0)) reply('error closed');
    });
  }

  /** A path for a proxy to listen on, in this namespace's private folder. */
  socketPath(): string {
    return path.join(this.dir, `proxy-${++this.sockets}.sock`);
  }

  private ask(line: string): Promise<string> {
    const asked = this.queue.then(
      () =>
        new Promise<string>((resolve, reject) => {
          if (!this.control) return reject(new Error("the capture browser's network namespace is gone"));
          this.replies.push(resolve);
          this.control.write(`${line}\n`);
        }),
    );
    this.queue = asked.catch(() => {});
    return asked;
  }

  /** A port inside the namespace that leads to the proxy listening on `socketPath`: what the browser is given. */
  async forward(socketPath: string): Promise<number> {
    const reply = await this.ask(`open ${socketPath}`);
    const port = /^port (\d+)$/.exec(reply)?.[1];
    if (!port) throw new Error(`the capture browser's network namespace refused a port: ${reply}`);
    return Number(port);
  }

  async unforward(port: number): Promise<void> {
    await this.ask(`close ${port}`).catch(() => {});
  }

  /** Ends the forwarder (it exits when its control connection closes) and removes the folder. */
  close(): void {
    this.control?.destroy();
    this.control = null;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
