import { mindreadSeats, parseMindread, type MindreadGraph } from '../../protocol/index.js';
import { claimedDefinition, definitionOf, flagOf, isDefaultProtocol, protocolKey, RECORDED_KEYS, recordedProtocolKey, SETTINGS, type SettingKey, type SimulationProtocol } from '../../simulation/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { RunConfig } from '../run-config.js';
import { RunError, RunErrorCode } from './run-error.js';

type ProtocolConfig = Pick<RunConfig, SettingKey> & { modes?: RunConfig['modes'] };

/**
 * The run's protocol, resolved: `--protocol` when given, else the protocol whose definition claims the
 * scenario set (`paper` for one wholly from SOTOPIA), else the default (`parley`: the built-in bot demo).
 * Each setting is the user's, else the protocol's default; a setting another protocol owns is an error,
 * so a run never silently ignores a flag.
 */
export function resolveProtocol(config: ProtocolConfig, scenarios: readonly Scenario[]): SimulationProtocol {
  const definition = config.protocol !== undefined ? definitionOf(config.protocol) : claimedDefinition(scenarios);
  const foreign = RECORDED_KEYS.filter((k) => config[k] !== undefined && SETTINGS[k].only && !(SETTINGS[k].only as readonly string[]).includes(definition.name));
  if (foreign.length) {
    const owners = [...new Set(foreign.flatMap((k) => SETTINGS[k].only ?? []))];
    throw new RunError(RunErrorCode.BadConfig, `${foreign.map(flagOf).join(', ')} only apply under --protocol ${owners.join('|')} (this run uses ${definition.name})`);
  }
  const resolved: Record<string, unknown> = { name: definition.name };
  for (const k of RECORDED_KEYS) {
    if (k === 'mindread') continue;
    resolved[k] = config[k] ?? definition.defaults[k];
  }
  resolved.leakJudgeOnly = [...new Set(resolved.leakJudgeOnly as string[])];
  return { ...(resolved as SimulationProtocol), ...mindreadOf(config, scenarios) };
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

export { isDefaultProtocol, protocolKey, recordedProtocolKey };
