import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

/**
 * The unit tier is in-process only (issue 21): no child process, no listening server socket, and so no
 * browser and no Redis. This setup file makes each of those throw inside unit tests, with the way out in
 * the message, so a test that needs one cannot land in the fast tier by mistake.
 */
const refuse = (what: string) => () => {
  throw new Error(`unit tier: ${what} is not allowed here (in-process only); move this test under test/ (integration) or test/system/`);
};
const mutable = childProcess as unknown as Record<string, unknown>;
for (const fn of ['spawn', 'fork', 'exec', 'execFile', 'spawnSync', 'execSync', 'execFileSync']) mutable[fn] = refuse(`child_process.${fn}`);
net.Server.prototype.listen = refuse('a listening server socket') as never;
// Named imports of node:child_process (`import { spawn } …`) see the patched functions too.
syncBuiltinESMExports();
