// Preloaded by bench/cli-cpu.ts (`node --require`): appends the CPU and minor page faults of a `parley` CLI process (not of its
// agent processes, which inherit the preload but are not bin/parley.js) to $PARLEY_CLI_CPU_LOG at exit.
'use strict';
const { appendFileSync } = require('node:fs');

const log = process.env.PARLEY_CLI_CPU_LOG;
if (log && process.argv[1] && /[\\/]bin[\\/]parley\.js$/.test(process.argv[1])) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    appendFileSync(log, `${JSON.stringify({ cpuMs: (user + system) / 1000, faults: process.resourceUsage().minorPageFault, code: process.exitCode ?? 0 })}\n`);
  });
}
