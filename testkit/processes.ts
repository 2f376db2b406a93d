import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../', import.meta.url));
export const PARLEY_BIN = join(REPO, 'bin', 'parley.js');

/** A child process of the CLI with its output collected line by line. */
export class CliProcess {
  readonly child: ChildProcess;
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<number | null>;
  private waiters: Array<{ re: RegExp; resolve: (m: RegExpMatchArray) => void }> = [];

  constructor(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
    this.child = spawn(process.execPath, [PARLEY_BIN, ...args], { cwd: opts.cwd ?? REPO, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    // 'close' (not 'exit'): every output line has been collected by then.
    this.exited = once(this.child, 'close').then(([code]) => code as number | null);
    const collect = (into: string[]) => {
      let buf = '';
      return (chunk: Buffer) => {
        buf += chunk.toString('utf8');
        let nl: number;
        while ((nl = buf.indexOf('\n')) !== -1) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          into.push(line);
          for (const w of [...this.waiters]) {
            const m = line.match(w.re);
            if (m) {
              this.waiters = this.waiters.filter((x) => x !== w);
              w.resolve(m);
            }
          }
        }
      };
    };
    this.child.stdout!.on('data', collect(this.stdout));
    this.child.stderr!.on('data', collect(this.stderr));
  }

  /**
   * Resolves with the first stdout/stderr line matching `re` (already seen or future); rejects, with the
   * process output, if the process exits without printing one.
   */
  line(re: RegExp): Promise<RegExpMatchArray> {
    for (const l of [...this.stdout, ...this.stderr]) {
      const m = l.match(re);
      if (m) return Promise.resolve(m);
    }
    const seen = new Promise<RegExpMatchArray>((resolve) => this.waiters.push({ re, resolve }));
    const gone = this.exited.then((code) => {
      // Let the last output chunks be collected before deciding.
      for (const l of [...this.stdout, ...this.stderr]) {
        const m = l.match(re);
        if (m) return m;
      }
      throw new Error(`process exited (${code}) without a line matching ${re}:\n${[...this.stdout, ...this.stderr].join('\n')}`);
    });
    return Promise.race([seen, gone]);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** `parley <args>` as a child process. */
export const parley = (args: string[], opts?: { cwd?: string; env?: NodeJS.ProcessEnv }) => new CliProcess(args, opts);

/** Every temp directory `tempDir` made in this process, in order (see `removeTempDirsSince`). */
const madeTempDirs: string[] = [];

/** A fresh temp directory and its removal. */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `parley-${prefix}-`));
  madeTempDirs.push(path);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** How many temp directories `tempDir` has made so far: a mark for `removeTempDirsSince`. */
export const tempDirMark = (): number => madeTempDirs.length;

/** Removes the temp directories made since `mark` (a skipped block's: its afterAll never runs). */
export function removeTempDirsSince(mark: number): void {
  for (const path of madeTempDirs.splice(mark)) rmSync(path, { recursive: true, force: true });
}

/** Awaits `p`, failing after `ms` with `label` and the given processes' output (for diagnosing hangs). */
export async function within<T>(p: Promise<T>, ms: number, label: string, procs: CliProcess[] = []): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const out = procs.map((c, i) => `--- process ${i} (pid ${c.child.pid}, exit ${c.child.exitCode ?? c.child.signalCode})\n${[...c.stdout, ...c.stderr].join('\n')}`).join('\n');
      reject(new Error(`timed out after ${ms} ms: ${label}\n${out}`));
    }, ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
