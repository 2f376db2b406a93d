import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellBlocks } from '../../testkit/readme-blocks.js';
import { weightKey } from '../../testkit/readme-weights.js';
import { REPO } from '../../testkit/processes.js';
import { readmeFiles, readText } from './runner.js';

/**
 * Writes testkit/readme-weights.ts, the README test's measured cost of each command, from the lines the
 * README runner logs as commands end (PARLEY_README_LOG=FILE, see test/readme/readme-shard.ts):
 *
 *   PARLEY_README_LOG=/tmp/r1.log npx vitest run test/readme/readme-run-*.test.ts    # twice or more
 *   npx tsx test/readme/weights-from-log.ts /tmp/r1.log /tmp/r2.log
 *
 * Each command's wall and CPU seconds are the mean over the logs that have it. Run the shards side by side,
 * as the suite does, so that every command is measured under the same kind of load.
 */
const LINE = /^(\S+):(\d+) \(block [^)]*\): exit \S+ in ([\d.]+) s, ([\d.]+) CPU-s: (.*)$/;

function measured(logs: string[]): Map<string, { wall: number[]; cpu: number[] }> {
  const byKey = new Map<string, { wall: number[]; cpu: number[] }>();
  for (const log of logs) {
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      const m = LINE.exec(line);
      if (!m) continue;
      const key = weightKey(m[1]!, m[5]!);
      const entry = byKey.get(key) ?? { wall: [], cpu: [] };
      entry.wall.push(Number(m[3]));
      entry.cpu.push(Number(m[4]));
      byKey.set(key, entry);
    }
  }
  return byKey;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function main(logs: string[]): void {
  if (!logs.length) throw new Error('usage: tsx test/readme/weights-from-log.ts LOG…  (PARLEY_README_LOG files)');
  const byKey = measured(logs);
  const rows: string[] = [];
  const seen = new Set<string>();
  for (const file of readmeFiles(REPO)) {
    for (const block of shellBlocks(file, readText(REPO, file))) {
      for (const c of block.commands) {
        const key = weightKey(file, c.code);
        const m = byKey.get(key);
        if (!m || seen.has(key)) continue;
        seen.add(key);
        rows.push(`  ${JSON.stringify(key)}: [${mean(m.wall).toFixed(1)}, ${mean(m.cpu).toFixed(2)}],`);
      }
    }
  }
  const path = join(REPO, 'testkit', 'readme-weights.ts');
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('export const MEASURED');
  const end = text.indexOf('\n};\n', start);
  writeFileSync(path, `${text.slice(0, start)}export const MEASURED: Record<string, readonly [wallS: number, cpuS: number]> = {\n${rows.join('\n')}${text.slice(end)}`);
  console.log(`${rows.length} commands from ${logs.length} log(s) written to ${path}`);
}

main(process.argv.slice(2));
