/**
 * `parley <command> …`: a table of commands, each in its own module under `cli/commands/`, loaded only
 * when called so that `parley agent` starts fast and does not load the orchestrator.
 */
type CommandModule = { run(argv: string[]): Promise<number> };

const COMMANDS: Record<string, { describe: string; load: () => Promise<CommandModule> }> = {
  demo: { describe: 'offline demo: built-in scenarios, all three modes, bots', load: () => import('./commands/demo.js') },
  run: { describe: 'run episodes and write a run directory', load: () => import('./commands/run.js') },
  serve: { describe: 'open seats for remote agents and run their episodes', load: () => import('./commands/serve.js') },
  agent: { describe: 'play one seat: connect to an orchestrator with a token', load: () => import('./commands/agent.js') },
  scenarios: { describe: 'import | list | show | validate | generate scenarios', load: () => import('./commands/scenarios.js') },
  eval: { describe: 're-evaluate a finished run with a judge', load: () => import('./commands/eval.js') },
  report: { describe: 'write report.md / report.html with charts for runs', load: () => import('./commands/report.js') },
  compare: { describe: 'pairwise naturalness judgement between two runs', load: () => import('./commands/compare.js') },
  annotate: { describe: 'serve the human pairwise naturalness study of two runs to annotators', load: () => import('./commands/annotate.js') },
  export: { describe: 'export a run (sotopia | csv | openai-chat | mistral-chat fine-tuning data)', load: () => import('./commands/export.js') },
  finetune: { describe: 'submit a fine-tuning job | status of one (openai, mistral)', load: () => import('./commands/finetune.js') },
};

function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.describe}`);
  return ['usage: parley <command> [options]', '', 'commands:', ...rows, '', 'parley <command> --help for its options'].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`parley: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  let mod: CommandModule;
  try {
    mod = await command.load();
  } catch (err) {
    console.error(`parley ${name}: not available (${(err as Error).message})`);
    return 2;
  }
  return mod.run(rest);
}

// `tsx cli/main.ts …` (npm start) runs this file directly.
if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (err) => { console.error(err); process.exitCode = 1; },
  );
}
