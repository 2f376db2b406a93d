import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { tempDir } from './helpers/processes.js';
import { describeWithData } from './helpers/reference-data.js';

// A block skipped for want of reference data is still collected (its tests are listed as skipped), and a
// temp folder it makes while collected would be left behind: its afterAll never runs. describeWithData
// removes such folders once the block is collected.
let madeWhileSkipped: string | undefined;
describeWithData({ dir: '', skip: true, reason: 'this test skips on purpose' }, 'a block without its data', () => {
  madeWhileSkipped = tempDir('skipped-block').path;
  it('never runs', () => {
    throw new Error('a skipped block ran');
  });
});

it('removes the temp folders a skipped block made while collected', () => {
  expect(madeWhileSkipped).toMatch(/parley-skipped-block-/);
  expect(existsSync(madeWhileSkipped!)).toBe(false);
});
