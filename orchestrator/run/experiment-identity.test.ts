import { describe, expect, it } from 'vitest';
import { RunConfig } from '../run-config.js';
import { checkExperimentIdentity, protocolChange } from './experiment-identity.js';

const base = RunConfig.parse({ out: 'runs/x', scenarios: 'builtin', modes: ['agents'] });
const recorded = (config: RunConfig, history: unknown[] = []) => ({ runId: 'r1', config, history });

describe('one experiment per run directory', () => {
  it('accepts a fresh directory and a rerun with the same settings (concurrency and out do not count)', () => {
    expect(checkExperimentIdentity(null, base, false, 'd')).toEqual({ ok: true, changed: [] });
    expect(checkExperimentIdentity(recorded(base), { ...base, concurrency: 9, out: '/abs/runs/x' }, false, 'd')).toEqual({ ok: true, changed: [] });
  });

  it('refuses other settings, naming each difference', () => {
    const r = checkExperimentIdentity(recorded(base), { ...base, scenarios: 'S.jsonl', maxTurns: 5 }, false, 'runs/x');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toContain('scenarios: builtin → S.jsonl');
    expect(r.message).toContain('maxTurns: 20 → 5');
    expect(r.message).toContain('Nothing was changed');
  });

  it('--extend adds scenarios, modes and repeats, but never other policies', () => {
    expect(checkExperimentIdentity(recorded(base), { ...base, modes: ['agents', 'script'], repeats: 2 }, true, 'd')).toEqual({ ok: true, changed: ['modes', 'repeats'] });
    const r = checkExperimentIdentity(recorded(base), { ...base, agents: [{ spec: 'openai:gpt-4', params: {} }] }, true, 'd');
    expect(r.ok ? '' : r.message).toMatch(/agents: \[\{"spec":"bot"\}\] → \[\{"spec":"openai:gpt-4"\}\]/);
  });

  it('a setting missing from an older run.json compares as its default; any other setting is defining', () => {
    const { maxTurns: _m, ...older } = base;
    expect(checkExperimentIdentity(recorded(older as RunConfig), base, false, 'd').ok).toBe(true);
    const r = checkExperimentIdentity(recorded(base), { ...base, seed: 7 }, true, 'd');
    expect(r.ok ? '' : r.message).toContain('seed: 1 → 7');
  });

  it('protocol settings the key names are compared resolved (protocolChange), not as given: a run from before a setting continues with its value', () => {
    // A paper run.json from before --agent-temperature and --reply-reading: neither in its config.
    const older = { ...base, protocol: 'paper' as const };
    const now = { ...older, agentTemperature: 'paper' as const, replyReading: 'lenient' as const };
    expect(checkExperimentIdentity(recorded(older), now, false, 'd')).toEqual({ ok: true, changed: [] });
    // A setting the key does not hold is still compared as given.
    const r = checkExperimentIdentity(recorded(older), { ...older, selection: 'all' as RunConfig['selection'] }, false, 'd');
    expect(r.ok).toBe(false);
  });

  it('a plain rerun of the command that started an extended experiment still resumes', () => {
    const extended = { ...base, modes: ['agents', 'script'] as RunConfig['modes'] };
    const previous = recorded(extended, [{ startedAt: 't0', extend: false, changed: [], config: base }, { startedAt: 't1', extend: true, changed: ['modes'], config: extended }]);
    expect(checkExperimentIdentity(previous, base, false, 'd').ok).toBe(true);
  });
});

describe('the resolved protocol of a run directory', () => {
  const key = (p: unknown) => (typeof p === 'object' && p && 'name' in p ? String((p as { name: unknown }).name) : null);
  it('refuses a run that would resolve to another protocol than the one recorded, and accepts the same or none', () => {
    expect(protocolChange({ protocol: { name: 'paper' } }, 'parley', key, 'runs/x')).toMatch(/protocol paper; this one resolves to parley/);
    expect(protocolChange({ protocol: { name: 'paper' } }, 'paper', key, 'runs/x')).toBeNull();
    expect(protocolChange({}, 'parley', key, 'runs/x')).toBeNull();
    expect(protocolChange(null, 'paper', key, 'runs/x')).toBeNull();
  });
});
