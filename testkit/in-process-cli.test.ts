import { describe, expect, it } from 'vitest';
import { refusal, runInProcess } from './in-process-cli.js';

describe('runInProcess: what the command sees and what it leaves', () => {
  it('collects console.* and stream writes into lines per stream, as a child process, and hands back the exit code', async () => {
    const r = await runInProcess(['x'], {}, async () => {
      console.log('a %d', 1);
      process.stdout.write('b\nc');
      process.stdout.write(Buffer.from('d\n'));
      console.error('e');
      console.warn('f');
      process.stderr.write('g\n');
      return 3;
    });
    expect(r).toEqual({ code: 3, stdout: ['a 1', 'b', 'cd'], stderr: ['e', 'f', 'g'] });
  });

  it('gives the command exactly the env asked for, streams that are no terminal, and restores them after', async () => {
    const before = { ...process.env };
    const saw: Record<string, unknown> = {};
    await runInProcess(['x'], { env: { ONLY_THIS: '1' } }, async () => {
      Object.assign(saw, { env: { ...process.env }, tty: process.stdout.isTTY || process.stderr.isTTY });
      process.env.LEFT_BEHIND = 'yes';
      return 0;
    });
    expect(saw).toEqual({ env: { ONLY_THIS: '1' }, tty: false });
    expect(process.env).toEqual(before);
  });

  it('a process.exit from the command fails the call, clearly, and this process goes on with process.exit put back', async () => {
    const exit = process.exit;
    await expect(runInProcess(['x'], {}, async () => process.exit(130))).rejects.toThrow(/called process\.exit\(130\).*bin\/parley\.js/);
    // Swallowed by the command (runCommand catches every error): still refused.
    const swallowing = async () => {
      try {
        process.exit(0);
      } catch {
        /* a command's catch-all */
      }
      return 0;
    };
    await expect(runInProcess(['x'], {}, swallowing)).rejects.toThrow(/called process\.exit\(0\)/);
    expect(process.exit).toBe(exit);
  });

  it('removes the signal, exit and stream listeners the command left, and no others', async () => {
    const mine = () => {};
    process.on('SIGINT', mine);
    const count = () => [process.listenerCount('SIGINT'), process.listenerCount('exit'), process.stdout.listenerCount('error')];
    const before = count();
    let during: number[] = [];
    await runInProcess(['x'], {}, async () => {
      process.on('SIGINT', () => {});
      process.once('exit', () => {});
      process.stdout.on('error', () => {});
      during = count();
      return 0;
    });
    expect(during).toEqual(before.map((n) => n + 1));
    expect(count()).toEqual(before);
    expect(process.listeners('SIGINT')).toContain(mine);
    process.off('SIGINT', mine);
  });

  it('runs calls one at a time: the second starts when the first has finished and restored everything', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = runInProcess(['x'], { env: { CALL: '1' } }, async () => {
      order.push(`start 1 ${process.env.CALL}`);
      await held;
      order.push('end 1');
      return 0;
    });
    const second = runInProcess(['x'], { env: { CALL: '2' } }, async () => {
      order.push(`start 2 ${process.env.CALL}`);
      return 0;
    });
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['start 1 1']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['start 1 1', 'end 1', 'start 2 2']);
  });

  it('a call that throws does not block the next one', async () => {
    await expect(runInProcess(['x'], {}, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect((await runInProcess(['x'], {}, async () => 0)).code).toBe(0);
  });
});

describe('refusal: commands whose behaviour is their process', () => {
  it.each([['serve', 'x'], ['worker'], ['agent', '--token', 't'], ['watch', 'R'], ['study', 'f'], ['annotate', 'a', 'b']])('parley %s is refused', async (...argv) => {
    expect(refusal(argv)).toMatch(/bin\/parley\.js/);
    let ran = false;
    await expect(runInProcess(argv, {}, async () => ((ran = true), 0))).rejects.toThrow(/^in-process parley: 'parley \w+'/);
    expect(ran).toBe(false);
  });

  it('--queue (either form) is refused; plain runs, reports and shows are not', async () => {
    expect(refusal(['run', '--queue', 'redis://x'])).toMatch(/'--queue' hands the run/);
    expect(refusal(['run', '--queue=redis://x'])).toMatch(/'--queue' hands the run/);
    for (const argv of [['run', '--limit', '2'], ['report', 'R'], ['show', 'R'], ['eval', 'R'], []]) expect(refusal(argv)).toBeNull();
  });
});
