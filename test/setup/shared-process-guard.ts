import { afterAll } from 'vitest';

/**
 * Integration and system files share their worker process (isolate: false in vitest.config.ts): each file no
 * longer pays for a fresh process and a fresh import of the same modules, which was ~15 s of a CPU-bound
 * suite. The price is that a file must leave the process as it found it. This setup file (run before every
 * file) makes the two leaks that would reach the next file fail the file that caused them, and undoes them
 * so that the next file starts clean: environment variables, and the working directory. Module state is
 * the code's own business: the modules are the same for every file either way.
 */
const env = { ...process.env };
const cwd = process.cwd();

afterAll(() => {
  const changed = [...new Set([...Object.keys(env), ...Object.keys(process.env)])].filter((k) => process.env[k] !== env[k]).sort();
  for (const k of changed) {
    if (env[k] === undefined) delete process.env[k];
    else process.env[k] = env[k];
  }
  const moved = process.cwd() !== cwd;
  if (moved) process.chdir(cwd);
  if (changed.length || moved) {
    throw new Error(
      `this file left the shared test process changed (restore it in afterAll/afterEach): ${[...(changed.length ? [`environment ${changed.join(', ')}`] : []), ...(moved ? [`working directory ${cwd}`] : [])].join('; ')}`,
    );
  }
});
