import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { directiveFor, type ShellBlock, type ShellCommand } from '../../testkit/readme-blocks.js';
import type { Sandbox } from './sandbox.js';

/**
 * Runs the shell blocks of README.md and docs/*.md as a reader would: in order, each command in bash in
 * the sandbox, one shell state carried from command to command (exported variables, the directory).
 *
 * Placeholders such as `<that-dir>` are filled from what earlier commands printed (PLACEHOLDERS: the
 * latest match wins). A command must exit 0, unless its comment says `fails: TEXT`: then it must exit
 * non-zero and print TEXT. A failure names the file, line, block and command, with the output's end.
 */

/** `<name>` in a command → the pattern whose first group, in the latest output that has it, fills it. */
export const PLACEHOLDERS: Record<string, RegExp> = {
  // `npm start` / `parley run`: "… recorded in /…/runs/<dir>"
  'that-dir': /(?:run directory:|recorded in) (?:\S*\/)?runs\/([^\s/]+)/g,
  'episode-id': /\b([a-z0-9][\w-]*\.(?:script|agents|mindreaders)\.r\d+\.[0-9a-f]{12})\b/g,
  // `parley finetune submit`: the job id the provider gave
  job: /\b(ftjob-[\w-]+)/g,
  // `parley serve` / `run --watch`
  T: /\btoken ([\w-]{16,})/g,
  T1: /seat agent1 token ([\w-]+)/g,
  T2: /seat agent2 token ([\w-]+)/g,
  K: /[?&]key=([\w-]+)/g,
};

/** `<name>` in a command → the environment variable a reader sets it from (the test's fake server's key). */
export const ENV_PLACEHOLDERS: Record<string, string> = {
  'your-openai-key': 'OPENAI_API_KEY',
  'your-mistral-key': 'MISTRAL_API_KEY',
};

export interface CommandOutcome {
  code: number | null;
  output: string;
}

export class ReadmeFailure extends Error {}

interface Background {
  command: ShellCommand;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** Milliseconds from its start to its ready line. */
  readyMs?: number;
}

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

export class ReadmeRunner {
  /** Every command's output so far, oldest first (for placeholders). */
  readonly outputs: string[] = [];
  /** Commands a directive kept from running, with the reason. */
  readonly notRun: Array<{ where: string; command: string; reason: string }> = [];
  private readonly stateFile: string;
  private readonly cwdFile: string;

  constructor(
    private readonly sandbox: Sandbox,
    private readonly env: NodeJS.ProcessEnv,
    private readonly timeoutMs = 180_000,
    /** One line per command as it ends (where, exit status, seconds): for following a long run. */
    private readonly progress: (line: string) => void = () => {},
  ) {
    this.stateFile = join(sandbox.state, 'shell-state.sh');
    this.cwdFile = join(sandbox.state, 'shell-cwd');
  }

  /** Fills `<name>` placeholders from earlier output; throws naming any it cannot fill. */
  fill(code: string): string {
    return code.replace(/<([A-Za-z][\w-]*)>/g, (whole, name: string) => {
      const fromEnv = ENV_PLACEHOLDERS[name];
      if (fromEnv && this.env[fromEnv]) return this.env[fromEnv];
      const re = PLACEHOLDERS[name];
      if (!re) throw new ReadmeFailure(`no rule fills the placeholder ${whole} (known: ${Object.keys(PLACEHOLDERS).map((k) => `<${k}>`).join(', ')}; test/readme/runner.ts)`);
      for (let i = this.outputs.length - 1; i >= 0; i--) {
        const all = [...this.outputs[i]!.matchAll(re)];
        if (all.length) return all[all.length - 1]![1]!;
      }
      throw new ReadmeFailure(`no earlier command printed a value for ${whole}`);
    });
  }

  /** Runs one block; throws a ReadmeFailure naming the block and the command that failed. */
  async runBlock(block: ShellBlock): Promise<void> {
    const background: Background[] = [];
    const where = (c: ShellCommand) => `${block.file}:${c.line} (block ${block.index} of ${block.file}, opened at line ${block.line})`;
    try {
      for (const command of block.commands) {
        const directive = directiveFor(block, command);
        if (directive?.kind === 'skip') {
          this.notRun.push({ where: where(command), command: command.source, reason: directive.reason });
          continue;
        }
        let code: string;
        try {
          code = this.fill(command.code);
        } catch (err) {
          throw new ReadmeFailure(`${where(command)}: ${(err as Error).message}\n  command: ${command.source}`);
        }
        if (directive?.kind === 'background') {
          const t0 = Date.now();
          background.push({ ...(await this.startBackground(command, code, directive.until, where(command))), readyMs: Date.now() - t0 });
          continue;
        }
        const t0 = Date.now();
        const cpu0 = childCpuSeconds();
        const outcome = await this.exec(code);
        // CPU of the processes the command waited for (its own, agent processes'): what the shard's cost is
        // made of (testkit/readme-weights.ts). A background server ended meanwhile counts here too.
        const cpu = childCpuSeconds() - cpu0;
        this.progress(`${where(command)}: exit ${outcome.code} in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${cpu.toFixed(2)} CPU-s: ${command.code}`);
        this.outputs.push(outcome.output);
        this.check(command, outcome, where(command));
      }
      for (const b of background) {
        const [t0, cpu0] = [Date.now(), childCpuSeconds()];
        const code = await this.stopBackground(b);
        // A server's cost: its start to the ready line, its stop, and its CPU (all counted once it is reaped).
        const wall = (b.readyMs! + Date.now() - t0) / 1000;
        this.progress(`${where(b.command)}: exit ${code ?? 'stopped'} in ${wall.toFixed(1)} s, ${(childCpuSeconds() - cpu0).toFixed(2)} CPU-s: ${b.command.code}`);
        this.outputs.push(b.output());
        if (code !== null && code !== 0) this.check(b.command, { code, output: b.output() }, where(b.command));
      }
    } finally {
      for (const b of background) killGroup(b.child, 'SIGKILL');
    }
  }

  private check(command: ShellCommand, outcome: CommandOutcome, where: string): void {
    const output = outcome.output.replace(ANSI, '');
    const tail = output.split('\n').slice(-40).join('\n');
    if (command.fails !== undefined) {
      if (outcome.code === 0) throw new ReadmeFailure(`${where}: meant to fail (# fails: ${command.fails}) but exited 0\n  command: ${command.source}\n--- output (end) ---\n${tail}`);
      if (!output.includes(command.fails)) throw new ReadmeFailure(`${where}: failed (exit ${outcome.code}) without printing "${command.fails}"\n  command: ${command.source}\n--- output (end) ---\n${tail}`);
      return;
    }
    if (outcome.code !== 0) throw new ReadmeFailure(`${where}: exit ${outcome.code ?? 'killed'}\n  command: ${command.source}\n--- output (end) ---\n${tail}`);
  }

  /** The bash script for one command: the previous command's state in, this one's state out. */
  private script(code: string): string {
    return [
      'set -o pipefail',
      `[ -f "${this.stateFile}" ] && . "${this.stateFile}"`,
      `[ -f "${this.cwdFile}" ] && cd "$(cat "${this.cwdFile}")"`,
      `trap 'export -p > "${this.stateFile}"; pwd > "${this.cwdFile}"' EXIT`,
      code,
    ].join('\n');
  }

  private spawn(code: string): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
    const child = spawn('bash', ['-c', this.script(code)], {
      cwd: this.sandbox.cwd,
      env: { ...this.env, PATH: this.sandbox.path },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const exited = once(child, 'close').then(([c]) => c as number | null);
    return { child, output: () => out, exited };
  }

  /** Runs one command to its end (killed with its process group after the timeout). */
  async exec(code: string): Promise<CommandOutcome> {
    const { child, output, exited } = this.spawn(code);
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), this.timeoutMs);
    try {
      const c = await exited;
      return { code: c, output: output() + (c === null ? `\n(killed after ${this.timeoutMs} ms)` : '') };
    } finally {
      clearTimeout(timer);
    }
  }

  private async startBackground(command: ShellCommand, code: string, until: string, where: string): Promise<Background> {
    const { child, output, exited } = this.spawn(code);
    const b: Background = { command, child, output, exited };
    const seen = () => output().replace(ANSI, '').includes(until);
    // Wait on events: each chunk of output (checked as it arrives), the process's end, or one 60 s timeout.
    let onData = () => {};
    let timer: NodeJS.Timeout | undefined;
    const outcome = await new Promise<'seen' | 'exited' | 'timeout'>((resolve) => {
      onData = () => { if (seen()) resolve('seen'); };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      onData();
      void exited.then(() => resolve(seen() ? 'seen' : 'exited'));
      timer = setTimeout(() => resolve('timeout'), 60_000);
    }).finally(() => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
    });
    const tail = `\n  command: ${command.source}\n--- output (end) ---\n${output().split('\n').slice(-40).join('\n')}`;
    if (outcome === 'seen') return b;
    if (outcome === 'exited') throw new ReadmeFailure(`${where}: the server exited (${child.exitCode}) before printing "${until}"${tail}`);
    killGroup(child, 'SIGKILL');
    throw new ReadmeFailure(`${where}: no "${until}" within 60 s${tail}`);
  }

  /**
   * Stops a background command at the end of its block, as its reader would (Ctrl-C: SIGINT, then SIGKILL
   * after 15 s): the README's servers run until stopped, so waiting for them to end by themselves only
   * cost a minute a server. One that ended already returns its exit status (checked as any command's).
   */
  private async stopBackground(b: Background): Promise<number | null> {
    if (b.child.exitCode !== null || b.child.signalCode !== null) return b.exited;
    const timeout = <T>(p: Promise<T>, ms: number) => {
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([p, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)))]).finally(() => clearTimeout(timer));
    };
    killGroup(b.child, 'SIGINT');
    if ((await timeout(b.exited, 15_000)) === 'timeout') killGroup(b.child, 'SIGKILL');
    await b.exited;
    return null;
  }
}

/** CPU seconds of this process's waited-for children so far (cutime + cstime of /proc/self/stat; 0 without /proc). */
export function childCpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return 0;
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** The Markdown files whose shell blocks the README test runs, in order: README.md, then docs/*.md. */
export function readmeFiles(repo: string): string[] {
  const docs = join(repo, 'docs');
  const files = ['README.md'];
  if (existsSync(docs)) {
    for (const f of readdirSync(docs).filter((f) => f.endsWith('.md')).sort()) files.push(join('docs', f));
  }
  return files;
}

export const readText = (repo: string, file: string) => readFileSync(join(repo, file), 'utf8');
