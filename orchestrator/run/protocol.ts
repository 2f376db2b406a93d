import { mindreadKey, mindreadSeats, parseMindread, type MindreadGraph, PAPER_PROTOCOL, PARLEY_PROTOCOL, SimulationProtocol as SimulationProtocolSchema, type SimulationProtocol } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { RunConfig } from '../run-config.js';
import { RunError, RunErrorCode } from './run-error.js';

type ProtocolConfig = Pick<RunConfig, 'protocol' | 'backgrounds' | 'scriptFormat' | 'stopRule' | 'leakJudgeOnly' | 'showRelationshipStory' | 'onUnparsable' | 'mindread'> & { modes?: RunConfig['modes'] };

/**
 * The run's protocol, resolved: `--protocol` when given, else `paper` for a scenario set that comes
 * wholly from SOTOPIA and `parley` otherwise (the built-in bot demo). Settings that only exist under
 * `paper` are an error under `parley`, so a run never silently ignores a flag.
 */
export function resolveProtocol(config: ProtocolConfig, scenarios: readonly Scenario[]): SimulationProtocol {
  const name = config.protocol ?? (scenarios.length > 0 && scenarios.every((s) => s.source === 'sotopia') ? 'paper' : 'parley');
  const shared = {
    leakJudgeOnly: [...new Set(config.leakJudgeOnly ?? [])],
    showRelationshipStory: config.showRelationshipStory ?? false,
    // Each protocol's own default: SOTOPIA's code went on with `none`; Parley fails the turn.
    onUnparsable: config.onUnparsable ?? (name === 'paper' ? PAPER_PROTOCOL : PARLEY_PROTOCOL).onUnparsable,
    ...mindreadOf(config, scenarios),
  };
  if (name === 'parley') {
    const paperOnly = (['backgrounds', 'scriptFormat', 'stopRule'] as const).filter((k) => config[k] !== undefined);
    if (paperOnly.length) {
      throw new RunError(RunErrorCode.BadConfig, `${paperOnly.map(flagOf).join(', ')} only apply under --protocol paper (this run uses parley)`);
    }
    return { ...PARLEY_PROTOCOL, ...shared };
  }
  return {
    ...PAPER_PROTOCOL,
    backgrounds: config.backgrounds ?? PAPER_PROTOCOL.backgrounds,
    scriptFormat: config.scriptFormat ?? PAPER_PROTOCOL.scriptFormat,
    stopRule: config.stopRule ?? PAPER_PROTOCOL.stopRule,
    ...shared,
  };
}

/**
 * `--mindread` checked against the run: a map needs mindreaders mode among the modes, and every seat it
 * names must be a seat of some scenario of the run. `all` (or none) is the default: no graph recorded.
 */
function mindreadOf(config: ProtocolConfig, scenarios: readonly Scenario[]): { mindread?: MindreadGraph } {
  if (config.mindread === undefined) return {};
  const parsed = parseMindread(config.mindread);
  if (!parsed.ok) throw new RunError(RunErrorCode.BadConfig, `--mindread: ${parsed.message}`);
  if (!parsed.graph) return {};
  const problem = mindreadProblem(parsed.graph, scenarios, config.modes);
  if (problem) throw new RunError(RunErrorCode.BadConfig, problem);
  return { mindread: parsed.graph };
}

/** Why a mindreading map does not fit the run (unknown seats, no mindreaders mode), or null. */
export function mindreadProblem(graph: MindreadGraph, scenarios: readonly Scenario[], modes?: readonly string[]): string | null {
  const known = new Set(scenarios.flatMap((s) => s.seats.map((x) => x.seat)));
  const unknown = mindreadSeats(graph).filter((s) => !known.has(s));
  if (unknown.length) return `--mindread: unknown seat${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (the scenarios' seats: ${[...known].sort().join(', ')})`;
  if (modes && !modes.includes('mindreaders')) return '--mindread applies to mindreaders mode; add mindreaders to --modes';
  return null;
}

/** Whether the protocol is today's behaviour exactly (episode ids then stay as they were). */
export function isDefaultParley(p: SimulationProtocol): boolean {
  return p.name === 'parley' && p.leakJudgeOnly.length === 0 && !p.showRelationshipStory && p.onUnparsable === PARLEY_PROTOCOL.onUnparsable && !p.mindread;
}

/** A short stable description for episode ids and the card, e.g. `paper/code/text/code`. */
export function protocolKey(p: SimulationProtocol): string {
  const parts: string[] = p.name === 'paper' ? [p.name, p.backgrounds, p.scriptFormat, p.stopRule] : [p.name];
  if (p.leakJudgeOnly.length) parts.push(`leak:${[...p.leakJudgeOnly].sort().join('+')}`);
  if (p.showRelationshipStory) parts.push('story');
  // Only a departure from the protocol's own default is named, so the ids of runs from before the switch stay as they were.
  const usual = (p.name === 'paper' ? PAPER_PROTOCOL : PARLEY_PROTOCOL).onUnparsable;
  if (p.onUnparsable !== usual) parts.push(`unparsable:${p.onUnparsable}`);
  if (p.mindread) parts.push(`mindread:${mindreadKey(p.mindread)}`);
  return parts.join('/');
}

function flagOf(k: 'backgrounds' | 'scriptFormat' | 'stopRule'): string {
  return { backgrounds: '--backgrounds', scriptFormat: '--script-format', stopRule: '--stop-rule' }[k];
}

/** The key of a protocol recorded in run.json, or null when none is (a run from before protocols). */
export function recordedProtocolKey(value: unknown): string | null {
  const parsed = SimulationProtocolSchema.safeParse(value);
  return parsed.success ? protocolKey(parsed.data) : null;
}
