/**
 * Summarises V8 CPU profiles (`.cpuprofile`, from `node --cpu-prof`) as text: self time by function and
 * by module, over the profiles given, split into a cold part (the first `--cold-ms` of each process:
 * start-up and its first episode) and the warm rest. Used to write bench/agent-profile.md; the
 * profiles themselves are too big to keep.
 * `--layers` adds self time by layer (profile-layers.ts: the HTTP client, ws, zod, …) for a flat profile.
 *   tsx bench/cpu-profile-summary.ts [--cold-ms 6000] [--top 25] [--layers] FILE.cpuprofile…
 */
import { readFileSync } from 'node:fs';
import { layerOf } from './profile-layers.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

type Tally = Map<string, number>;

/**
 * A bundle's source file at each line: esbuild writes `// path/of/source.ts` above each module it
 * inlines, so a frame in a bundled agent process is attributed to its source file (or package).
 */
const bundleSources = new Map<string, string[]>();
function bundleSourceAt(url: string, line: number): string | null {
  if (!url.includes('/.cache/parley/')) return null;
  let at = bundleSources.get(url);
  if (!at) {
    at = [];
    let current = url.replace(/.*\//, '');
    try {
      for (const text of readFileSync(new URL(url), 'utf8').split('\n')) {
        const m = /^\/\/ ((?:node_modules\/)?[\w@./-]+\.[cm]?[jt]s)$/.exec(text);
        if (m) current = m[1]!;
        at.push(current);
      }
    } catch {
      // The bundle was pruned since: the chunk's name only.
    }
    bundleSources.set(url, at);
  }
  return at[line] ?? url.replace(/.*\//, '');
}

/** Where a frame's code lives: the package (node_modules/<pkg>), the project's source, or node itself. */
export function moduleOf(url: string, functionName: string, line = 0): string {
  if (!url) return `(${functionName || 'program'})`;
  const source = bundleSourceAt(url, line);
  if (source) return source.startsWith('node_modules/') ? moduleOf(source, functionName) : source;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '').replace(/.*\/(?=[^/]+\/[^/]+$)/, '');
}

/** Adds one profile's self time (µs) into `cold` (first `coldMs` of the process) and `warm`. */
export function tallyProfile(p: CpuProfile, coldMs: number, into: { cold: { fn: Tally; mod: Tally }; warm: { fn: Tally; mod: Tally } }): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  let t = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    t += dt;
    const node = byId.get(p.samples[i]!);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const part = t / 1000 < coldMs ? into.cold : into.warm;
    const { functionName, url, lineNumber } = node.callFrame;
    const mod = moduleOf(url, functionName, lineNumber);
    const fn = `${functionName || '(anonymous)'} ${mod}${url ? `:${lineNumber + 1}` : ''}`;
    part.fn.set(fn, (part.fn.get(fn) ?? 0) + dt);
    part.mod.set(mod, (part.mod.get(mod) ?? 0) + dt);
  }
}

function table(title: string, tally: Tally, top: number): string {
  const total = [...tally.values()].reduce((a, b) => a + b, 0);
  const rows = [...tally].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [`${title} (busy ${(total / 1000).toFixed(0)} ms)`, ...rows.map(([k, v]) => `  ${((100 * v) / Math.max(1, total)).toFixed(1).padStart(5)} %  ${(v / 1000).toFixed(1).padStart(8)} ms  ${k}`)].join('\n');
}

if (process.argv[1]?.endsWith('cpu-profile-summary.ts')) {
  const args = process.argv.slice(2);
  const opt = (name: string, dflt: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
  const coldMs = opt('--cold-ms', 6000);
  const top = opt('--top', 25);
  const files = args.filter((a, i) => a.endsWith('.cpuprofile') && !['--cold-ms', '--top'].includes(args[i - 1] ?? ''));
  const into = { cold: { fn: new Map(), mod: new Map() }, warm: { fn: new Map(), mod: new Map() } };
  for (const f of files) tallyProfile(JSON.parse(readFileSync(f, 'utf8')) as CpuProfile, coldMs, into);
  process.stdout.write(`${files.length} profile(s); cold = first ${coldMs} ms of each process\n\n`);
  for (const part of ['cold', 'warm'] as const) {
    if (args.includes('--layers')) {
      const layers: Tally = new Map();
      for (const [mod, us] of into[part].mod) layers.set(layerOf(mod), (layers.get(layerOf(mod)) ?? 0) + us);
      process.stdout.write(`${table(`${part}: self time by layer`, layers, top)}\n\n`);
    }
    process.stdout.write(`${table(`${part}: self time by module`, into[part].mod, top)}\n\n${table(`${part}: self time by function`, into[part].fn, top)}\n\n`);
  }
}
