import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.js';
import { checkPositionals, commandHelp, type CommandSpec } from './command.js';
import { COMMANDS } from './main.js';
import { subcommands } from './commands/scenarios.js';

/**
 * Every `parley …` / `npx parley …` command line in README.md (code blocks and inline code) must parse
 * with the parser the command really uses: the README cannot name a flag or subcommand that does not exist.
 */
function readmeCommandLines(): string[] {
  const text = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const lines: string[] = [];
  const blocks = [...text.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/\\\n\s*/g, ' '));
  for (const block of blocks) for (const line of block.split('\n')) lines.push(line);
  for (const m of text.replace(/```[\s\S]*?```/g, '').matchAll(/`((?:npx )?parley [^`]+)`/g)) lines.push(m[1]!);
  return lines
    .map((l) => l.replace(/\s#\s.*$/, '').trim())
    // `parley <command> …` describes the form of every command, not one command line.
    .filter((l) => /^(npx )?parley /.test(l) && !/^(npx )?parley </.test(l))
    .map((l) => l.replace(/^npx /, ''));
}

/** Shell-like words: whitespace-separated, `…` (an elision in the README) dropped. */
const words = (line: string) => line.split(/\s+/).filter((w) => w && w !== '…' && w !== '...').slice(1);

/** Null when the line parses with its command's own parser, else what is wrong. */
async function checkLine(line: string): Promise<string | null> {
  const [name, ...argv] = words(line);
  if (name === '--version' || name === '--help') return null;
  const command = COMMANDS[name!];
  if (!command) return `unknown command '${name}'`;
  const mod = await command.load();
  if (name === 'scenarios') {
    const [subName, ...rest] = argv;
    const sub = subcommands()[subName!];
    if (!sub) return `unknown scenarios subcommand '${subName}'`;
    const parsed = parseArgs(rest, { ...sub.spec.flags, help: { type: 'boolean', describe: '' } });
    return parsed.ok ? null : parsed.message;
  }
  // A command with several forms (`export`: run formats and fine-tuning formats) lists them all in `specs`.
  const specs = mod.specs ?? (mod.spec ? [mod.spec] : []);
  if (!specs.length) return `command '${name}' exports no CommandSpec (cli/command.ts)`;
  let problem: string | null = null;
  for (const spec of specs) {
    problem = checkAgainst(spec, argv, line);
    if (problem === null) return null;
  }
  return problem;
}

/** Null when argv parses with this one spec. */
function checkAgainst(spec: CommandSpec, argv: string[], line: string): string | null {
  const parsed = parseArgs(argv, { ...spec.flags, help: { type: 'boolean', describe: '' } });
  if (!parsed.ok) return parsed.message;
  // A bare mention (`parley report`) or an elided line (`parley run … --multiplex`) has no complete positionals.
  if (argv.length && !parsed.flags.help && !line.includes('…')) {
    try {
      checkPositionals(spec, parsed.positionals);
    } catch (err) {
      return (err as Error).message;
    }
  }
  return null;
}

describe('README command lines', () => {
  const lines = readmeCommandLines();
  it('finds the README command lines, and the check catches a bad one', async () => {
    expect(lines.length).toBeGreaterThan(15);
    expect(await checkLine('parley run --out d --bogus')).toBe('unknown flag --bogus');
    expect(await checkLine('parley scenarios import sotopia D --outt F')).toBe('unknown flag --outt');
    expect(await checkLine('parley scenarios frobnicate')).toMatch(/unknown scenarios subcommand/);
    expect(await checkLine('parley eval --blind')).toMatch(/missing one run directory/);
  });
  for (const line of lines) {
    it(line, async () => {
      expect(await checkLine(line)).toBeNull();
    });
  }
});

describe('--help', () => {
  it('lists every flag the parser accepts, for every command', async () => {
    for (const [name, c] of Object.entries(COMMANDS)) {
      const mod = await c.load();
      if (name === 'scenarios') {
        for (const [subName, sub] of Object.entries(subcommands())) {
          // The options section is generated from the very flags the parser accepts.
          const help = commandHelp(sub.spec);
          for (const flag of Object.keys(sub.spec.flags)) expect(help, `scenarios ${subName} --help names --${flag}`).toMatch(new RegExp(`^  --${flag}\\b`, 'm'));
          for (const m of help.matchAll(/^  --([a-z-]+)/gm)) expect([...Object.keys(sub.spec.flags), 'help'], `scenarios ${subName} accepts --${m[1]}`).toContain(m[1]);
        }
        continue;
      }
      const specs = mod.specs ?? (mod.spec ? [mod.spec] : []);
      expect(specs.length, `${name} exports its CommandSpec`).toBeGreaterThan(0);
      for (const spec of specs) {
        const help = commandHelp(spec);
        for (const flag of Object.keys(spec.flags)) expect(help).toMatch(new RegExp(`^  --${flag}\\b`, 'm'));
      }
    }
  });
});

describe('parley --help', () => {
  it('is generated from what the commands accept: every scenarios subcommand, every export format', async () => {
    const { usage } = await import('./main.js');
    const { EXPORT_FORMATS } = await import('./commands/export.js');
    const text = await usage();
    const line = (name: string) => text.split('\n').find((l) => l.startsWith(`  ${name} `)) ?? '';
    for (const sub of Object.keys(subcommands())) expect(line('scenarios')).toMatch(new RegExp(`\\b${sub}\\b`));
    expect(line('scenarios')).toMatch(/\bfetch\b/);
    for (const f of EXPORT_FORMATS) expect(line('export')).toContain(f);
    for (const name of Object.keys(COMMANDS)) expect(line(name), name).not.toBe('');
  });
  it("a command of several forms shows each form's flags (compare: --human and --verdicts)", async () => {
    const mod = await COMMANDS.compare!.load();
    const help = mod.specs!.map(commandHelp).join('\n\n');
    expect(help).toMatch(/^ {2}--human\b/m);
    expect(help).toMatch(/^ {2}--verdicts\b/m);
    expect(help).toMatch(/^ {2}--judge\b/m);
  });
});
