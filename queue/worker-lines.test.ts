import { describe, expect, it } from 'vitest';
import { otherCodeLine, unreadableResultLine, workerFailedLine } from './worker-lines.js';

const hostile = 'evil\u001b]0;owned\u0007\u001b[2J\nparley: run complete';

describe("the coordinator's lines about what Redis returned", () => {
  it('carry no escape sequence and no line break from a worker or a job', () => {
    for (const line of [workerFailedLine('e1', hostile), otherCodeLine({ pid: 7, host: hostile }, hostile, '"abc"'), unreadableResultLine('e1', hostile)]) {
      expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(line).toContain('evil');
      expect(line.split('\n')).toHaveLength(1);
    }
  });

  it('say what happened', () => {
    expect(workerFailedLine('e1', 'boom')).toBe('episode e1: failed on the workers (boom); not recorded, a rerun tries it again');
    expect(workerFailedLine('e1', undefined)).toContain('no reason given');
    expect(otherCodeLine({ pid: 7, host: 'h' }, '"x"', '"y"')).toBe('worker 7 on h runs other code ("x") than this coordinator ("y"); run.json records the coordinator\'s');
  });
});
