/**
 * The architecture's layers, in one place (DESIGN.md "Layout"): an allow-list. Every top-level folder of
 * the source has a rank and names the folders it may import; each of those must rank strictly lower, so
 * imports only go down and the folders can form no cycle. `boundaries.test.ts` computes the folder graph of
 * the source (tests excluded) and fails on any import not listed here, on any cycle, and on a folder with
 * no layer. Tests next to the code (`*.test.ts`, `testing/`) may import what their folder may, plus
 * `test/` and `testkit/`; `test/` itself and the root config files are not checked.
 */
export interface Layer {
  module: string;
  /** Lower ranks are imported by higher ones, never the reverse. */
  rank: number;
  /**
   * The folders this one may import. `only` narrows a folder to the listed files (repository paths
   * without extension), e.g. one public entry module.
   */
  imports: readonly (string | { module: string; only: readonly string[] })[];
  why: string;
}

/** Folders whose files are never checked: the test suite and root-level config (vitest.config.ts). */
export const UNCHECKED_MODULES: readonly string[] = ['test', ''];

export const LAYERS: readonly Layer[] = [
  { module: 'protocol', rank: 0, imports: [], why: 'pure zod: schemas, types and codes every module shares' },
  { module: 'disk', rank: 0, imports: [], why: 'atomic file writes, below every module that writes a file' },
  {
    module: 'text',
    rank: 0,
    imports: [],
    why: 'pure text helpers every layer shares and no frame is: terminal-safe escaping, YAML read with line numbers, SOTOPIA\'s gender adjective and hint parentheses',
  },
  { module: 'random', rank: 0, imports: [], why: 'the one seeded generator: pure, used by scenarios, bots and statistics' },
  { module: 'testkit', rank: 0, imports: [], why: 'fakes (LLM server, processes, Redis) shared by tests and bench/, depending on nothing of the product' },
  {
    module: 'simulation',
    rank: 1,
    imports: ['protocol', 'random'],
    why: 'one definition per simulation protocol and the settings every run is shaped by: pure, read by every process, the CLI and the pages (issue 34)',
  },
  { module: 'llm', rank: 1, imports: ['protocol', 'disk'], why: 'provider clients and cassettes, a library below the three processes' },
  {
    module: 'seat-client',
    rank: 1,
    imports: ['protocol'],
    why: 'what a seat\'s client computes from its frames alone (the connection state machine, the task tallies and outcome line read from public moves), shared by the browser page, the terminal client, the bots and the engine\'s group outcome so they agree',
  },
  {
    module: 'web',
    rank: 2,
    imports: ['protocol', 'simulation', 'seat-client', { module: 'disk', only: ['disk/package-root', 'disk/bundle-cache'] }],
    why: 'the browser pages speak frames only; web/assets.ts (server side, bundles the pages) sits here with them so the orchestrator serves them from below, finds their files through the package root (a bundled CLI runs from a build cache), and bundles them with the same zod plugin as every other bundle',
  },
  { module: 'scenarios', rank: 2, imports: ['protocol', 'seat-client', 'disk', 'random', 'llm'], why: 'scenario model, files and generators; its CLI lives in cli/scenarios/' },
  { module: 'run-dir', rank: 3, imports: ['protocol', 'simulation', 'text', 'disk', 'scenarios', 'llm'], why: 'the run directory format, shared by the orchestrator and the evaluator, so it imports neither' },
  {
    module: 'agent-node',
    // Above run-dir/ only for the cassette layout: an LLM seat records its own calls where run-dir/ says
    // a seat's cassette lies (the one run-directory path an agent process writes), and nothing else of it.
    rank: 4,
    imports: ['protocol', 'simulation', 'text', 'seat-client', 'llm', 'disk', 'random', { module: 'run-dir', only: ['run-dir/cassette-layout'] }],
    why: 'an agent knows only what its frames told it (its SeatView), never the scenario files, the run directory or the world; its cassette files lie where run-dir/cassette-layout.ts says',
  },
  {
    module: 'orchestrator',
    rank: 4,
    imports: ['protocol', 'simulation', 'text', 'disk', 'random', 'llm', 'web', 'scenarios', 'run-dir'],
    why: 'talks to agents only through frames (the agent entry is the package.json import `#agent-entry`, never a source import)',
  },
  { module: 'evaluator', rank: 4, imports: ['protocol', 'simulation', 'text', 'disk', 'random', 'llm', 'scenarios', 'run-dir'], why: 'reads a run directory; shares nothing with the processes that wrote it' },
  {
    module: 'training',
    rank: 5,
    // Fine-tuning examples are rendered from one seat's view exactly as a live agent sees it: the pure
    // projection and prompt renderer, each from its own file (not agent-node/policies/llm/index, which
    // loads the LLM policy and its provider clients), and nothing else of the engine.
    imports: [
      'protocol',
      'simulation',
      'llm',
      'scenarios',
      'run-dir',
      { module: 'orchestrator', only: ['orchestrator/observe'] },
      { module: 'agent-node', only: ['agent-node/policies/llm/seat-prompt', 'agent-node/policies/llm/agent-prompt', 'agent-node/policies/llm/render'] },
    ],
    why: 'training data uses the same pure projection and renderer as a live run',
  },
  {
    module: 'queue',
    rank: 5,
    // Issue 22, Contract 2: the queue is one executor of the run lifecycle; it sees the orchestrator only
    // through the run's public entry, never its internal modules.
    imports: ['protocol', 'simulation', 'text', 'disk', 'llm', 'scenarios', 'run-dir', { module: 'orchestrator', only: ['orchestrator/run/index'] }],
    why: 'runs episodes of the orchestrator on Redis-fed workers, through orchestrator/run/index.ts only',
  },
  {
    module: 'probes',
    rank: 6,
    // A probe rebuilds a seat's exact prompt at a turn the way training/ does (its ledger replayed into the
    // view, the live renderer), asks the seat's policy (a bot from its belief state), and reads the run
    // directory as a fork's parent is read; its report uses the evaluator's statistics and chart; nothing else.
    imports: [
      'protocol',
      'disk',
      'text',
      'llm',
      'scenarios',
      'run-dir',
      { module: 'training', only: ['training/seat-turns'] },
      // probe --batch submits and collects through the judge's batch machinery (the provider's Batch API and its results), nothing else of it.
      { module: 'evaluator', only: ['evaluator/stats/wilson', 'evaluator/stats/summary', 'evaluator/report/svg', 'evaluator/report/markdown-text', 'evaluator/batch/batch-results', 'evaluator/batch/provider-batch'] },
      { module: 'orchestrator', only: ['orchestrator/run-config', 'orchestrator/fork/parent'] },
      { module: 'agent-node', only: ['agent-node/policies/llm/seat-prompt', 'agent-node/policies/llm/templates', 'agent-node/policies/bot/probe-answer'] },
    ],
    why: 'belief probes (issue 36): a seat asked off the record from its replayed prompt; the run is only read',
  },
  {
    module: 'cli',
    rank: 7,
    imports: ['protocol', 'simulation', 'text', 'disk', 'random', 'llm', 'scenarios', 'agent-node', 'run-dir', 'orchestrator', 'evaluator', 'training', 'queue', 'probes'],
    why: 'wires everything together; nothing imports it',
  },
  {
    module: 'bench',
    rank: 8,
    imports: ['disk', 'protocol', 'simulation', 'llm', 'scenarios', 'run-dir', 'orchestrator', 'queue', 'cli', 'testkit'],
    why: '`npm run bench` drives the product with the fakes of testkit/, never the test suite; its case processes are bundled as the CLI is (disk/bundle-cache.js)',
  },
];
