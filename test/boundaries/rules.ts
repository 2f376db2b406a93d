/**
 * The architecture's import rules, in one place (DESIGN.md "Layout"). `boundaries.test.ts` reads the import
 * graph of the whole tree and fails on any import listed here as forbidden. A rule names the importing
 * top-level module (`from`), the modules it must never import (`never`) and the files of those modules it
 * may import all the same (`except`, paths from the repository root without extension).
 *
 * Top-level modules not named in `never` are free to import each other: `protocol/` (imported by all),
 * the shared libraries `llm/`, `scenarios/`, `run-dir/`, `disk/` and `random/`, `cli/` (wires everything together), `test/`
 * and `bench/`.
 */
export interface BoundaryRule {
  from: string;
  never: readonly string[];
  except?: readonly string[];
  why: string;
}

/** Every project module (a top-level directory holding TypeScript). `protocol/` imports none of them. */
export const PROJECT_MODULES = ['protocol', 'orchestrator', 'agent-node', 'evaluator', 'scenarios', 'llm', 'run-dir', 'disk', 'random', 'cli', 'web', 'training', 'queue', 'test', 'bench'] as const;

export const BOUNDARY_RULES: readonly BoundaryRule[] = [
  {
    from: 'orchestrator',
    never: ['agent-node', 'evaluator'],
    why: 'the orchestrator talks to agents only through frames; it reaches the agent process entry through the package.json entry `#agent-entry`, never a source import',
  },
  {
    from: 'agent-node',
    never: ['orchestrator', 'evaluator', 'scenarios'],
    why: 'an agent knows only what its frames told it (its SeatView), never the scenario files or the world',
  },
  {
    from: 'evaluator',
    never: ['orchestrator', 'agent-node'],
    why: 'the evaluator reads a run directory; it shares nothing with the processes that wrote it',
  },
  {
    from: 'protocol',
    never: PROJECT_MODULES.filter((m) => m !== 'protocol'),
    why: 'protocol/ is pure zod: schemas, types and codes every module shares, so it can depend on none of them',
  },
  {
    from: 'disk',
    never: PROJECT_MODULES.filter((m) => m !== 'disk'),
    why: 'disk/ (atomic file writes) sits below every module that writes a file, so it can depend on none of them',
  },
  {
    from: 'random',
    never: PROJECT_MODULES.filter((m) => m !== 'random'),
    why: 'random/ (the one seeded generator) is pure and used by scenarios, bots and statistics alike',
  },
  {
    from: 'run-dir',
    never: ['orchestrator', 'agent-node', 'evaluator', 'cli'],
    why: 'the run directory format is shared by the orchestrator and the evaluator, so it may import neither',
  },
  {
    from: 'scenarios',
    never: ['orchestrator', 'agent-node', 'evaluator', 'run-dir'],
    why: 'a shared library below the three processes',
  },
  {
    from: 'llm',
    never: ['orchestrator', 'agent-node', 'evaluator', 'scenarios'],
    why: 'a shared library below the three processes',
  },
  {
    from: 'web',
    never: ['orchestrator', 'agent-node', 'evaluator'],
    why: 'the browser seat client speaks the same frames as an agent process (socket.io), nothing else',
  },
  {
    // Allowed exception: fine-tuning examples are rendered from one seat's view exactly as a live agent
    // sees it, so training/ may use the projection and the agent prompt renderer (both pure), and no more.
    from: 'training',
    never: ['orchestrator', 'agent-node', 'evaluator'],
    // The renderer is imported from its own files, not through agent-node/policies/llm/index (which also
    // exports the LLM policy and so loads the provider clients).
    except: ['orchestrator/observe', 'agent-node/policies/llm/seat-prompt', 'agent-node/policies/llm/agent-prompt', 'agent-node/policies/llm/render'],
    why: 'training data uses the same pure projection and renderer as a live run, nothing of the engine',
  },
  {
    // Issue 22, Contract 2: the queue is one executor of the run lifecycle; it sees the orchestrator
    // only through the run's public entry, never its internal modules.
    from: 'queue',
    never: ['orchestrator'],
    except: ['orchestrator/run/index'],
    why: 'queue/ reaches the orchestrator only through its public entry orchestrator/run/index.ts',
  },
];
