import { describe, expect, it } from 'vitest';
import { SteadyWindow } from './window.js';

/** A window over 2 lanes and 4 episodes, opened after 2 recorded, reading CPU from `cpu` (pid → ms). */
function windowOver(cpu: Map<number, number>) {
  return new SteadyWindow(2, 4, 2, () => new Map(cpu));
}

describe('SteadyWindow agent CPU split', () => {
  it('counts the processes that played before the window as warm, and the ones started in it apart', () => {
    const cpu = new Map([[1, 500], [2, 500], [3, 100]]);
    const w = windowOver(cpu);
    // e1 played on processes 1 and 2 before the window; 3 is a spare still starting.
    w.turn('e1');
    w.preparedOne();
    w.preparedOne();
    w.recordedOne();
    w.recordedOne(); // opens
    // In the window: e2 on the warm 1 and 2 (4 turns); e3 on 1 and on 4, started in the window (2 turns).
    for (let i = 0; i < 4; i++) w.turn('e2');
    for (let i = 0; i < 2; i++) w.turn('e3');
    cpu.set(1, 560).set(2, 540).set(3, 400).set(4, 900);
    w.preparedOne();
    w.preparedOne(); // closes
    const split = w.agentsSplit(new Map([['e1', [1, 2]], ['e2', [1, 2]], ['e3', [1, 4]]]));
    expect(split.warm).toEqual({ processes: 2, cpuMs: 100, turns: 5 });
    // 3 started before the window but never played: its start-up is not warm CPU; 4 started in it.
    expect(split.other).toEqual({ processes: 2, cpuMs: 300 + 900, turns: 1 });
    expect(w.turns).toBe(6);
    expect(w.agentsCpuMs).toBe(100 + 300 + 900);
  });

  it('does not take the CPU of a process that exited in the window off the others', () => {
    const cpu = new Map([[1, 500], [2, 700]]);
    const w = windowOver(cpu);
    w.turn('e1');
    w.recordedOne();
    w.recordedOne();
    w.turn('e2');
    cpu.delete(2);
    cpu.set(1, 520);
    for (let i = 0; i < 4; i++) w.preparedOne();
    expect(w.agentsCpuMs).toBe(20);
    const split = w.agentsSplit(new Map([['e1', [1, 2]], ['e2', [1, 2]]]));
    expect(split.warm).toEqual({ processes: 1, cpuMs: 20, turns: 0.5 });
  });
});
