// Replaces this process with Node.js running `args` in `cwd` (process.execve), so whoever started it (npm, systemd,
// tini, a terminal) signals and waits for that program itself, and sees its output last and its exit code. Between a
// supervisor and the program, a shell or a second npm was left running the program when only it was signalled, and
// a second npm printed its own error report after the program's last message (issue 42).
import { spawn } from 'node:child_process';

export function execNode(args, cwd) {
  process.chdir(cwd);
  if (typeof process.execve === 'function') process.execve(process.execPath, [process.execPath, ...args], process.env);
  // Node.js before 22.15 has no execve: a child, the signals passed on, its exit code kept.
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 1));
}
