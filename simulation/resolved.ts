import type { ProtocolView } from '../protocol/index.js';
import type { ProtocolDefinition } from './definition.js';
import { definitionOf, findDefinition } from './protocols.js';
import { PAPER } from './paper.js';
import { PARLEY } from './parley.js';
import { RECORDED_KEYS, SETTINGS, SimulationProtocol } from './settings.js';

/** A definition's protocol with every setting at its default (what a run that sets nothing follows). */
export function defaultProtocol(d: ProtocolDefinition): SimulationProtocol {
  return Object.freeze({ name: d.name, ...d.defaults, leakJudgeOnly: [...d.defaults.leakJudgeOnly] }) as SimulationProtocol;
}

/** Today's behaviour: the protocol of runs that do not choose one and of the built-in bot demo. */
export const PARLEY_PROTOCOL: SimulationProtocol = defaultProtocol(PARLEY);

/** The paper protocol with its defaults. */
export const PAPER_PROTOCOL: SimulationProtocol = defaultProtocol(PAPER);

/** The definition a resolved protocol follows. */
export function definitionOfProtocol(p: Pick<SimulationProtocol, 'name'> | undefined): ProtocolDefinition {
  return definitionOf(p?.name);
}

/**
 * What a seat is told of the protocol (the frames' `protocol` field), or undefined when frames do not
 * name it: the protocol a seat assumes when told none keeps its frames as they were.
 */
export function protocolView(p: SimulationProtocol, to: 'seat' | 'script writer' = 'seat'): ProtocolView | undefined {
  const d = definitionOf(p.name);
  // A protocol whose frames name nothing (parley) is still named when a setting a seat must act on departs
  // from its default: today the persona rendering. At the default, frames stay as they were.
  const persona = p.persona !== d.defaults.persona ? { persona: p.persona } : {};
  if (!d.announced && !('persona' in persona)) return undefined;
  // An agent's temperature when its policy sets none; the script writer keeps its own (SOTOPIA's 0.7).
  const temperature = to === 'seat' ? d.agentTemperature(p) : undefined;
  const seatOnly = to === 'seat' ? { replyReading: p.replyReading } : {};
  return { name: p.name, backgrounds: p.backgrounds, scriptFormat: p.scriptFormat, seat: { ...d.seat }, ...persona, ...(temperature === undefined ? {} : { agentTemperature: temperature }), ...seatOnly };
}

/** A short stable description for episode ids and the card, e.g. `paper/code/text/code`. */
export function protocolKey(p: SimulationProtocol): string {
  const d = definitionOf(p.name);
  const parts = [p.name, ...d.keyParts(p)];
  for (const k of RECORDED_KEYS) {
    const part = SETTINGS[k].idPart?.(p[k], d.defaults) ?? null;
    if (part !== null) parts.push(part);
  }
  return parts.join('/');
}

/**
 * Whether the protocol is the default protocol with every setting at its default: today's behaviour
 * exactly (episode ids then carry no protocol part and stay as they were).
 */
export function isDefaultProtocol(p: SimulationProtocol): boolean {
  return protocolKey(p) === protocolKey(PARLEY_PROTOCOL);
}

/** The key of a protocol recorded in run.json, or null when none is (a run from before protocols). */
export function recordedProtocolKey(value: unknown): string | null {
  const parsed = SimulationProtocol.safeParse(value);
  return parsed.success ? protocolKey(parsed.data) : null;
}

/** run.json's resolved `protocol` (untrusted) in words for the card, every switch that departs from the paper named. */
export function protocolCardLine(value: unknown, esc: (v: unknown) => string): string | null {
  if (!value || typeof value !== 'object') return null;
  const p = value as Record<string, unknown>;
  const d = findDefinition(p.name) ?? PARLEY;
  const parts = [d.cardHead(p, esc), ...RECORDED_KEYS.map((k) => SETTINGS[k].card?.(p[k], esc) ?? '')];
  return parts.filter((s) => s !== '').join('; ');
}
