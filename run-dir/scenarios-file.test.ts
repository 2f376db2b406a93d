import { describe, expect, it } from 'vitest';
import { missingScenarioIds } from './scenarios-file.js';

describe('missingScenarioIds', () => {
  it('names each missing id once, sorted whatever order the records came in (episodes finish in any order)', () => {
    const kept = new Map([['builtin-cl-01', {}]]);
    expect(missingScenarioIds(['builtin-mf-02', 'builtin-cl-01', 'builtin-mf-01', 'builtin-mf-02'], kept)).toEqual(['builtin-mf-01', 'builtin-mf-02']);
    expect(missingScenarioIds(['builtin-mf-01', 'builtin-mf-02'], kept)).toEqual(['builtin-mf-01', 'builtin-mf-02']);
  });
});
