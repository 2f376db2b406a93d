import { readFileSync } from 'node:fs';

/** Parent pid and command line of a process (Linux /proc), or null when it is gone or unreadable. */
function procInfo(pid: number): { ppid: number; cmdline: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    return { ppid, cmdline };
  } catch {
    return null;
  }
}

/** The `npm exec` / `npx` process this one was started by (a few levels up: npm → sh → node), if any. */
function npmLauncher(): number | null {
  if (process.env.npm_command !== 'exec') return null;
  let pid = process.ppid;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    const info = procInfo(pid);
    if (!info) return null;
    if (/^(npm exec|npx)\b/.test(info.cmdline) || /\bnpx-cli\.js\b|\bnpm-cli\.js\b.*\bexec\b/.test(info.cmdline)) return pid;
    pid = info.ppid;
  }
  return null;
}

/** Running (a killed process whose parent has not reaped it yet is a zombie: gone for our purpose). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * `npx parley run …` makes this process a grandchild of `npm exec` (npm → sh → node). npm forwards
 * SIGINT/SIGTERM, but a SIGKILL of npm cannot be forwarded: this orchestrator would go on unseen,
 * appending to the run directory while a restarted run starts. So when started by npm exec, parley
 * watches that process and calls `onGone` (which stops at once, as if killed with it) when it disappears.
 * Nothing is watched otherwise, so `nohup parley run … &` survives its shell as usual. Returns a stop function.
 */
export function watchLauncher(onGone: () => void, intervalMs = 200): () => void {
  const launcher = npmLauncher();
  if (launcher === null) return () => {};
  const timer = setInterval(() => {
    if (alive(launcher)) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
