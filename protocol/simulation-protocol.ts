import { z } from 'zod';
import { MindreadGraph } from './mindread.js';

/**
 * Which simulation protocol an episode follows (docs/fidelity.md lays them side by side).
 * `paper`: each generator gets exactly the information of SOTOPIA's prompts at the paper's tag
 * (agent_vs_storyteller_v1), episodes end by leave / turn limit / stale rule, the script writer writes
 * free text. `parley`: Parley's own protocol, with explicit task moves and task-end stops.
 */
export const PROTOCOL_NAMES = ['paper', 'parley'] as const;
export const ProtocolName = z.enum(PROTOCOL_NAMES);
export type ProtocolName = z.infer<typeof ProtocolName>;

/**
 * Under `paper`, what an agent sees of the backgrounds. `code`: what SOTOPIA's renderer shows per
 * relationship (a stranger pair sees no background at all); `appendix`: both backgrounds as in the
 * paper's appendix prompt (the partner's secret never); `relationship`: Parley's relationship rule.
 */
export const BackgroundsRule = z.enum(['code', 'appendix', 'relationship']);
export type BackgroundsRule = z.infer<typeof BackgroundsRule>;

/** The script writer's output: the paper's free-text script, or Parley's JSON turns. */
export const ScriptFormat = z.enum(['text', 'json']);
export type ScriptFormat = z.infer<typeof ScriptFormat>;

/**
 * Stop rules under `paper`. `code`: SOTOPIA's RuleBasedTerminatedEvaluator as run (turn numbers 0..maxTurns,
 * i.e. maxTurns + 1 moves; the stale count includes the masked `none` of the seat not on turn);
 * `paper`: as the paper words it (maxTurns moves; more than 2 consecutive `none` moves).
 */
export const StopRule = z.enum(['code', 'paper']);
export type StopRule = z.infer<typeof StopRule>;

/**
 * What becomes of an agent's reply that is still unreadable after the one reformat request. `none`: the
 * turn is a `none` action that carries the failure (`TurnRecord.unparsable`) and the episode goes on, as
 * SOTOPIA's code did (the paper's default); `fail`: an explicit `policy/unparsable` error ends the episode
 * (Parley's default). A script writer's unreadable script follows the same switch (docs/fidelity.md).
 */
export const OnUnparsable = z.enum(['none', 'fail']);
export type OnUnparsable = z.infer<typeof OnUnparsable>;

/** Generators that may be sent judge-only text to reproduce what SOTOPIA's code sent them. */
export const JudgeOnlyLeakTarget = z.enum(['script', 'mindreaders']);
export type JudgeOnlyLeakTarget = z.infer<typeof JudgeOnlyLeakTarget>;

/** The protocol of a run, resolved (recorded in run.json and on the simulation card). */
export const SimulationProtocol = z.object({
  name: ProtocolName,
  backgrounds: BackgroundsRule.default('code'),
  scriptFormat: ScriptFormat,
  stopRule: StopRule.default('code'),
  /** Reproduce SOTOPIA's environment view for these generators (judge-only text included). */
  leakJudgeOnly: z.array(JudgeOnlyLeakTarget).default([]),
  /** Send the relationship's background story to the agents (SOTOPIA's stories often name secrets). */
  showRelationshipStory: z.boolean().default(false),
  /** Absent in run.json files written before the switch existed: those runs failed such turns. */
  onUnparsable: OnUnparsable.default('fail'),
  /** `mindreaders` mode: who reads whose private state (`--mindread`); absent = everyone reads everyone. */
  mindread: MindreadGraph.optional(),
});
export type SimulationProtocol = z.infer<typeof SimulationProtocol>;

/** What a seat is told of the protocol: how to render its prompt (nothing about other seats). */
export const ProtocolView = z.object({ name: ProtocolName, backgrounds: BackgroundsRule, scriptFormat: ScriptFormat });
export type ProtocolView = z.infer<typeof ProtocolView>;

/** Today's behaviour: the protocol of runs that do not choose one and of the built-in bot demo. */
export const PARLEY_PROTOCOL: SimulationProtocol = Object.freeze({
  name: 'parley',
  backgrounds: 'relationship',
  scriptFormat: 'json',
  stopRule: 'code',
  leakJudgeOnly: [],
  showRelationshipStory: false,
  onUnparsable: 'fail',
}) as SimulationProtocol;

/** The paper protocol with its defaults. */
export const PAPER_PROTOCOL: SimulationProtocol = Object.freeze({
  name: 'paper',
  backgrounds: 'code',
  scriptFormat: 'text',
  stopRule: 'code',
  leakJudgeOnly: [],
  showRelationshipStory: false,
  onUnparsable: 'none',
}) as SimulationProtocol;

/** The seat-facing part of a protocol. */
export function protocolView(p: SimulationProtocol): ProtocolView {
  return { name: p.name, backgrounds: p.backgrounds, scriptFormat: p.scriptFormat };
}
