import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRun } from '../helpers/audit.js';
import { parley, tempDir } from '../helpers/processes.js';
import { describeWithData, sotopiaData } from '../helpers/reference-data.js';

const data = sotopiaData();
const SOTOPIA = data.dir;

/**
 * Contract 1 of issue 9, as a user runs it: `parley run --scenarios S.jsonl --modes agents --out DIR` on
 * the 450 SOTOPIA instances with bots, under each protocol, then every ledger audited from the files alone
 * (helpers/audit.ts): no seat holds four consecutive content words of its partner's secret that its own
 * side and the public scenario do not hold.
 */
describeWithData(data, 'parley run on the 450 SOTOPIA instances (agents, bots): no paraphrased partner secret in any ledger', () => {
  const tmp = tempDir('isolation-paraphrase-run');
  const scenarios = join(tmp.path, 'S.jsonl');
  const results: Record<string, { code: number | null; stderr: string[] }> = {};

  beforeAll(async () => {
    const imported = await parley(['scenarios', 'import', 'sotopia', SOTOPIA, '--out', scenarios]).exited;
    expect(imported).toBe(0);
    for (const protocol of ['paper', 'parley']) {
      const p = parley(['run', '--scenarios', scenarios, '--modes', 'agents', '--protocol', protocol, '--selection', 'all', '--out', join(tmp.path, protocol)]);
      results[protocol] = { code: await p.exited, stderr: p.stderr };
    }
  }, 600_000);
  afterAll(() => tmp.remove());

  it.each(['paper', 'parley'])('--protocol %s: 450 episodes, every ledger clean', (protocol) => {
    expect(results[protocol]!.code, results[protocol]!.stderr.join('\n')).toBe(0);
    const dir = join(tmp.path, protocol);
    expect(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).protocol.name).toBe(protocol);
    const audit = auditRun(dir);
    expect(audit.violations).toEqual([]);
    expect(audit.checked.episodes).toBe(450);
    expect(audit.checked.paraphraseSeats).toBe(900);
  });
});
