import * as z from 'zod';

/*
 * What a seat's process is told of the simulation protocol, in `seat.welcome` and `script.request`. The
 * protocols themselves (their rules, settings and defaults) are defined in simulation/, one file each; a
 * seat reads only the capabilities below, never a protocol's name (issue 34).
 */

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
 * How a seat is to play, stated by the protocol's definition (simulation/) and sent with the welcome, so
 * an agent process, a bot, a person's terminal or the browser page acts on what it is told.
 */
export const SeatCapabilities = z.object({
  /** The prompt templates: SOTOPIA's at the paper's tag (`sotopia`), or Parley's own (`native`). */
  prompts: z.enum(['sotopia', 'native']),
  /** How a reply is asked for: the format written in the prompt with nothing constrained (`in-prompt`, as SOTOPIA), or a JSON schema (`schema`). */
  replyFormat: z.enum(['in-prompt', 'schema']),
  /** Whether the seat has task moves (select, offer/accept/reject/quit, propose); without them choices are said in words. */
  taskMoves: z.boolean(),
  /**
   * Where the one reformat request for an unreadable reply goes when the seat names no reformat model:
   * `sotopia` — SOTOPIA's model for an `openai:` seat, else the seat's model in a fresh request;
   * `continue` — the seat's own client, the conversation continued.
   */
  reformat: z.enum(['sotopia', 'continue']),
  /** Strip the seat's own name from the front of a reply, as SOTOPIA's agent did for one model (mixtral-prefix.ts). */
  stripOwnName: z.boolean(),
});
export type SeatCapabilities = z.infer<typeof SeatCapabilities>;

/** A protocol's name as a frame carries it: shown and recorded, never tested by a seat. */
export const ProtocolLabel = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/);

/**
 * What a seat is told of the protocol: how to render its prompt (nothing about other seats). `seat` is
 * absent in frames of orchestrators older than it; simulation/seat-capabilities.ts then reads the
 * capabilities of the named protocol.
 */
/**
 * How a character's profile is written into the prompts of Parley's own templates: sentences (`prose`,
 * the default) or one labelled line per field (`fields`). A multiverse axis of the paper's thesis: does the
 * script/agents gap depend on how personas are rendered?
 */
export const PersonaRendering = z.enum(['prose', 'fields']);
export type PersonaRendering = z.infer<typeof PersonaRendering>;

export const ProtocolView = z.object({
  name: ProtocolLabel,
  backgrounds: BackgroundsRule,
  scriptFormat: ScriptFormat,
  seat: SeatCapabilities.optional(),
  persona: PersonaRendering.optional(),
  /**
   * The sampling temperature of an agent or mindreader seat whose policy sets none (an explicit
   * `params.temperature` wins; a script writer never reads it). Absent: the seat's own default.
   */
  agentTemperature: z.number().min(0).max(2).optional(),
  /**
   * How an agent's JSON reply is read: as SOTOPIA's code read it (`code`: langchain's greedy span, both keys,
   * the five exact types; anything else to the reformat request) or Parley's lenient reading. Absent: lenient.
   */
  replyReading: z.enum(['code', 'lenient']).optional(),
});
export type ProtocolView = z.infer<typeof ProtocolView>;
