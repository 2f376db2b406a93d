import { fork } from 'node:child_process';
import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BotProcessCaseArgs, BotProcessCaseResult } from './bot-process-case.js';
import { runCase } from './child.js';
import { processMemory } from './memory.js';
import { mb } from './stats.js';

export interface BotProcessFigures {
  episodes: number;
  turns: number;
  /** Agent processes measured (one seat each; each plays many of the episodes). */
  processes: number;
  /** Peak VmHWM of one agent process, MB: counts the node binary's pages, which all processes share. */
  peakRssMB: number;
  /** Peak private resident memory (RssAnon) of one agent process, MB: what each further process costs. */
  peakPrivateMB: number;
  /** The floor: a Node process that only opens its IPC channel and says ready, MB. */
  emptyNode: { rssMB: number; privateMB: number };
}

/** Memory of an empty Node child with an IPC channel, as the pool forks one (the floor of any agent process). */
async function emptyNodeProcess(): Promise<{ rssMB: number; privateMB: number }> {
  const file = join(tmpdir(), `parley-bench-empty-${process.pid}.mjs`);
  writeFileSync(file, "process.send('ready'); process.on('disconnect', () => process.exit(0));\n");
  // No execArgv: the bench runs under tsx, whose loader a fork would otherwise inherit.
  const child = fork(file, [], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await once(child, 'message');
  const m = processMemory(child.pid!);
  child.disconnect();
  await once(child, 'exit');
  rmSync(file, { force: true });
  return { rssMB: mb(m?.hwmKb ?? 0), privateMB: mb(m?.anonKb ?? 0) };
}

/** The peak memory of one bot agent process over `episodes` sequential bot episodes (bot-process-case.ts). */
export async function botProcessCase(o: BotProcessCaseArgs): Promise<BotProcessFigures> {
  const { result } = await runCase<BotProcessCaseResult>('./bot-process-case.ts', o);
  return {
    episodes: result.episodes,
    turns: o.turns,
    processes: result.processes,
    peakRssMB: mb(result.peakRssKb),
    peakPrivateMB: mb(result.peakPrivateKb),
    emptyNode: await emptyNodeProcess(),
  };
}
