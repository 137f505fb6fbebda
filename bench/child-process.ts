/**
 * The benchmarks' own child processes: a bench script forks itself (`serve`, `bare`, …) so that the
 * server it measures runs in a process of its own, tells its parent what it listens on by IPC, and is
 * stopped when the bench ends.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/**
 * Forks `script` (run through tsx) with `args`, sends it `message` when given, and resolves with the
 * first message it sends back (its port, …); rejects when it ends before.
 */
export function forkAndWait<M extends object>(
  script: string,
  args: string[],
  options: { execArgv?: string[]; message?: unknown; stdoutFile?: string } = {},
): Promise<{ child: ChildProcess } & M> {
  const stdout = options.stdoutFile ? fs.openSync(options.stdoutFile, 'a') : 'inherit';
  const child = fork(script, args, { execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])], stdio: ['ignore', stdout, 'inherit', 'ipc'] });
  if (typeof stdout === 'number') fs.closeSync(stdout); // the child holds its own
  return new Promise((resolve, reject) => {
    child.once('message', (m: M) => resolve({ child, ...m }));
    child.once('exit', (code) => reject(new Error(`${args[0] ?? 'the child'} process ended (${code}) before listening`)));
    if (options.message !== undefined) child.send(options.message as object);
  });
}

/**
 * Asks a child to stop — by closing its IPC channel (`'disconnect'`, for a forked server that closes
 * when its parent goes) or with a signal — and kills it when it has not ended after `graceMs`.
 */
export function stopChild(child: ChildProcess, how: 'disconnect' | NodeJS.Signals = 'disconnect', graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (how === 'disconnect') child.disconnect();
    else child.kill(how);
  });
}
