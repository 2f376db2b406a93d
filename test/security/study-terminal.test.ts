import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { episode, mfScenario, writeRunDir } from '../../evaluator/testing/fixtures.js';
import { parley, within, type CliProcess } from '../helpers/processes.js';
import { CLI_GUARD_MS } from '../setup/guards.js';
import { processSuite } from '../helpers/process-suite.js';

/** Characters that drive a terminal or reorder what it shows (what terminalSafe removes). */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Text that tries every trick on a terminal: clear screen, colour, OSC title, C1 CSI, bell, bidi override, and a forged line. */
const forge = (what: string) => `${what}\u001b[2J\u001b[31m\u001b]0;pwned\u0007\u009b2J\u202eevil\r\nhuman naturalness study: 999 answer(s) FORGED by ${what}`;

/**
 * Issue 19, the human study on the terminal: the answers file and the secrets file are written by people
 * (annotators, or anyone by hand), so `parley compare --human` and `parley annotate` print what comes from
 * them through terminalSafe (text/terminal.ts). Real CLI processes; every line they print is checked.
 */
describe('the human study\'s files, printed on a terminal', () => {
  const suite = processSuite('study-terminal');
  const { tmp, procs } = suite;
  const dirs: string[] = [];
  suite.afterProcesses(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const expectClean = (p: CliProcess) => {
    const lines = [...p.stdout, ...p.stderr];
    expect(lines.filter((l) => CONTROL.test(l)).map((l) => JSON.stringify(l))).toEqual([]);
    return lines;
  };

  it('compare --human: run names, annotator names, pair keys and a bad line\'s quoted text forge nothing and drive nothing', async () => {
    const answer = (annotator: string, key: string, winner: 'A' | 'B') =>
      JSON.stringify({ v: 1, at: '2026-01-01T00:00:00Z', annotator, key, scenarioId: forge('scenario'), runA: forge('runA'), runB: forge('runB'), episodeA: 'e1', episodeB: 'e2', aShownFirst: true, winner, reason: forge('reason') });
    const file = join(tmp.path, 'ann.jsonl');
    writeFileSync(file, [
      answer(forge('ann1').slice(0, 100), forge('key1'), 'A'),
      answer(forge('ann2').slice(0, 100), forge('key1'), 'B'),
      answer(forge('ann1').slice(0, 100), forge('key2'), 'A'),
      // Not JSON: the parse error quotes the line.
      `\u001b[2J\u009b31m{"v":1,"annotator":"${forge('bad')}"`,
      '',
    ].join('\n'));
    const p = parley(['compare', '--human', file]);
    procs.push(p);
    expect(await within(p.exited, CLI_GUARD_MS, 'compare --human exits', [p])).toBe(0);
    const lines = expectClean(p);
    // The summary is there, with its one heading line; the forged ones are shown inside other lines.
    expect(lines.filter((l) => l.startsWith('human naturalness study:'))).toEqual([expect.stringMatching(/^human naturalness study: 3 answer\(s\) from 2 annotator\(s\) on 2 pair\(s\)$/)]);
    expect(lines.some((l) => l.includes('FORGED by runA'))).toBe(true);
    expect(lines.filter((l) => /:4: .*\(line ignored\)$/.test(l))).toHaveLength(1);
  });

  it('annotate: annotator names from a hand-edited secrets file are printed quoted and terminal-safe', async () => {
    const mf = mfScenario('mf-t');
    dirs.push(await writeRunDir([mf], [episode({ scenario: mf, mode: 'script', runId: 'run-a', moves: [['a', 'speak', 'hi']] })]));
    dirs.push(await writeRunDir([mf], [episode({ scenario: mf, mode: 'agents', runId: 'run-b', moves: [['a', 'speak', 'hi']] })]));
    const out = join(tmp.path, 'study.jsonl');
    const name = forge('name');
    writeFileSync(`${out}.secrets.json`, JSON.stringify({ salt: 'a'.repeat(64), tokens: { [name]: 'b'.repeat(32), bob: 'c'.repeat(32) } }), { mode: 0o600 });
    const p = parley(['annotate', dirs[0]!, dirs[1]!, '--port', '0', '--out', out]);
    procs.push(p);
    await within(p.line(/^annotator "bob": http:\/\/127\.0\.0\.1:\d+\/#token=c{32}$/), 30_000, 'annotate prints its links', [p]);
    const lines = expectClean(p);
    expect(lines.filter((l) => l.startsWith('annotator '))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('human naturalness study'))).toEqual([]);
    expect(lines.some((l) => /^annotator ".*FORGED by name.*": http:\/\/127\.0\.0\.1:\d+\/#token=b{32}$/.test(l))).toBe(true);
    p.kill();
  });
});
