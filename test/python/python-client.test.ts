import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 40, contract 3 in `npm test`: `python3 -m unittest` in clients/python (10 episodes of a Python
 * seat against `parley serve --judge` and a bot partner, observations, the end reward, a clean close, a
 * wrong token refused as a Python exception, a dropped connection resumed with the seat's resume secret) must pass. `.ci/run` installs python3 and Debian's
 * python3-websockets (the pinned 10.4) and sets PARLEY_REQUIRE_PYTHON=1, so CI never skips; elsewhere the
 * test is skipped, saying why, when no interpreter has that module.
 */
const CLIENT_DIR = join(import.meta.dirname, '..', '..', 'clients', 'python');
const PINNED = '10.4';

/** The first interpreter with the pinned websockets: `python3` on PATH, else Debian's (pyenv and the like shadow it). */
function findPython(): { python: string } | { reason: string } {
  const seen: string[] = [];
  for (const python of ['python3', '/usr/bin/python3']) {
    const probe = spawnSync(python, ['-c', 'import websockets; print(websockets.__version__)'], { encoding: 'utf8', timeout: 30_000 });
    if (probe.error) {
      seen.push(`${python}: not found`);
      continue;
    }
    const version = probe.stdout.trim();
    if (probe.status === 0 && version === PINNED) return { python };
    seen.push(probe.status === 0 ? `${python}: websockets ${version}` : `${python}: no websockets module`);
  }
  return { reason: `needs python3 with websockets==${PINNED} (apt-get install python3 python3-websockets; .ci/run installs them): ${seen.join('; ')}` };
}

const found = findPython();
const required = process.env.PARLEY_REQUIRE_PYTHON === '1';
const title = 'python3 -m unittest in clients/python passes (10 episodes against parley serve --judge, a wrong token refused, a drop resumed)';

describe('the Python seat client (clients/python)', () => {
  if ('reason' in found && !required) {
    console.log(`skipped: ${title} (${found.reason})`);
    it.skip(`${title} (skipped: ${found.reason})`, () => {});
    return;
  }

  it(title, async () => {
    if ('reason' in found) throw new Error(`PARLEY_REQUIRE_PYTHON=1 but ${found.reason}`);
    const child = spawn(found.python, ['-m', 'unittest', '-v'], { cwd: CLIENT_DIR, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`python3 -m unittest did not finish within 240 s:\n${output}`));
      }, 240_000);
      child.on('error', reject);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code, output).toBe(0);
    expect(output).toMatch(/test_2_ten_episodes_observations_end_reward_and_clean_close \(.*\) \.\.\. ok/);
    expect(output).toMatch(/test_1_a_wrong_token_is_refused_with_the_servers_code \(.*\) \.\.\. ok/);
    expect(output).toMatch(/test_3_a_dropped_connection_resumes_the_seat_with_its_resume_secret \(.*\) \.\.\. ok/);
    expect(output).toMatch(/^OK$/m);
  }, 300_000);
});
