import { runInProcess, type InProcessOptions, type InProcessResult } from '../../testkit/in-process-cli.js';

/**
 * `parley <argv>` through cli/main.ts's dispatcher in this test process (testkit/in-process-cli.ts: env, cwd and
 * output handled as a child's; one call at a time). The CLI's modules are loaded at the first call of a worker.
 */
export function parleyInProcess(argv: string[], opts: InProcessOptions = {}): Promise<InProcessResult> {
  return runInProcess(argv, opts, async (a) => (await import('../../cli/main.js')).main(a));
}
