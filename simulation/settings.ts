import * as z from 'zod';
import { BackgroundsRule, JudgeView, MindreadGraph, mindreadKey, parseMindread, PersonaRendering, ScriptFormat } from '../protocol/index.js';
import { DEFINITIONS, PROTOCOL_NAMES, ProtocolName } from './protocols.js';
import { JUDGE_VIEW_FACTS } from './judge-views.js';
import type { ProtocolDefaults, ProtocolDefinition } from './definition.js';
import { AgentTemperature, JudgeOnlyLeakTarget, ReplyReading, OnProviderError, OnUnparsable, Selection, StopRule } from './values.js';

/**
 * Every simulation setting a user can give, declared once (issue 34). The flags of `run`/`serve`/`demo`
 * (and `fork`'s), the experiment file's keys, the run config recorded in run.json, the resolved protocol's
 * schema, the episode-id key, the dry run's and the card's words are all generated from these
 * declarations: a new setting is one entry here (plus the code that acts on it).
 */
export interface SettingDeclaration<C extends z.ZodType = z.ZodType, R extends z.ZodType | undefined = z.ZodType | undefined> {
  /** The command-line flag, without `--`. */
  flag: string;
  /** How the flag is given: one of `choices`, a comma list of them, a switch, or free text. */
  kind: 'choice' | 'list' | 'boolean' | 'text';
  /** The values a `choice` or `list` setting accepts. */
  choices?: readonly string[];
  metavar?: string;
  describe: string;
  /** Which commands take the flag: all that shape a run (`config`: run, serve, demo) or `parley run` only (`run`). */
  flags: 'config' | 'run';
  /** The value as the run config (run.json's `config`) and an experiment file hold it. */
  config: C;
  /** The experiment file's schema, when its error should say more than `config`'s. */
  experiment?: z.ZodType;
  /** Whether one arm of an experiment may set it apart from the others (else it is the whole run's). */
  arm?: boolean;
  /** A setting of the resolved protocol (run.json's `protocol`): its recorded schema, defaults for older files. */
  recorded?: R;
  /** The protocols that have this setting; a run of another protocol refuses it, naming the flag. */
  only?: readonly ProtocolName[];
  /** A check of the flag's text beyond its kind (the value kept is the trimmed text): a message, or null. */
  check?: (text: string) => string | null;
  /** How `parley fork` treats the setting: it shapes the replayed prefix (must equal the parent's) or only the live turns. */
  fork?: 'prefix' | 'live';
  /** The episode-id key's part for a resolved value that departs from the protocol's default; null adds none. */
  idPart?: (value: unknown, defaults: ProtocolDefaults) => string | null;
  /** The simulation card's words for a recorded (untrusted) value; `esc` escapes a datum for Markdown. '' says nothing. */
  card?: (value: unknown, esc: (v: unknown) => string) => string;
  /** Words for each value: the dry run's and the card's. */
  words?: Readonly<Record<string, string>>;
}

function setting<C extends z.ZodType, R extends z.ZodType | undefined = undefined>(d: SettingDeclaration<C, R>): SettingDeclaration<C, R> {
  return d;
}

const choiceError = (what: string, options: readonly string[]) => (iss: { input: unknown }) => `'${String(iss.input)}' is not ${what} (allowed: ${options.join(', ')})`;

const UNPARSABLE_WORDS = {
  none: 'a reply unreadable after one reformat request becomes a counted `none` turn (an unreadable script: an empty one) and the episode goes on (`--on-unparsable none`)',
  fail: 'a reply unreadable after one reformat request fails the episode (`--on-unparsable fail`)',
} as const;

const PROVIDER_ERROR_WORDS = {
  none: 'an LLM call that failed after its retries becomes a counted `none` turn (a script writer\'s: an empty script) and the episode goes on (`--on-provider-error none`, as SOTOPIA\'s code)',
  fail: 'an LLM call that failed after its retries fails the episode (`--on-provider-error fail`)',
} as const;

export const SETTINGS = {
  protocol: setting({
    flag: 'protocol',
    kind: 'choice',
    choices: PROTOCOL_NAMES,
    metavar: PROTOCOL_NAMES.join('|'),
    describe: DEFINITIONS.map((d) => `${d.name}: ${d.summary}`).join('; '),
    flags: 'config',
    config: ProtocolName,
    experiment: z.enum(PROTOCOL_NAMES, { error: choiceError('a protocol', PROTOCOL_NAMES) }),
    fork: 'prefix',
  }),
  backgrounds: setting({
    flag: 'backgrounds',
    kind: 'choice',
    choices: BackgroundsRule.options,
    metavar: BackgroundsRule.options.join('|'),
    describe: "paper: backgrounds an agent sees (default code: SOTOPIA's renderer per relationship)",
    flags: 'config',
    config: BackgroundsRule,
    recorded: BackgroundsRule.default('code'),
    only: ['paper'],
    fork: 'prefix',
  }),
  scriptFormat: setting({
    flag: 'script-format',
    kind: 'choice',
    choices: ScriptFormat.options,
    metavar: ScriptFormat.options.join('|'),
    describe: "paper: the script writer's output (default text, the paper's free-text script)",
    flags: 'config',
    config: ScriptFormat,
    recorded: ScriptFormat,
    only: ['paper'],
    fork: 'prefix',
  }),
  stopRule: setting({
    flag: 'stop-rule',
    kind: 'choice',
    choices: StopRule.options,
    metavar: StopRule.options.join('|'),
    describe: "paper: turn limit and stale rule as SOTOPIA's code runs them (default) or as the paper words them",
    flags: 'config',
    config: StopRule,
    recorded: StopRule.default('code'),
    only: ['paper'],
    fork: 'live',
  }),
  agentTemperature: setting({
    flag: 'agent-temperature',
    kind: 'choice',
    choices: AgentTemperature.options,
    metavar: AgentTemperature.options.join('|'),
    describe:
      "paper: the temperature of agents and mindreaders whose policy sets none: code (default, 1.0, as SOTOPIA's runner scripts) or paper (0.7, the paper's appendix F); a seat's own params.temperature wins; the script writer stays at 0.7",
    flags: 'config',
    config: AgentTemperature,
    // Absent in run.json files written before the setting existed: those runs' agents sampled at 0.7.
    recorded: AgentTemperature.default('paper'),
    only: ['paper'],
    fork: 'live',
    // Named in the episode id when it is not what a paper run sampled before the setting existed (0.7), not
    // when it departs from today's default: an id without the part keeps meaning the runs already recorded
    // under it, so a run from before the setting resumes with `--agent-temperature paper` under the same ids,
    // and a run under today's default (`temperature:code`) is never mixed into one of them.
    idPart: (v) => (v !== 'paper' ? `temperature:${String(v)}` : null),
    words: {
      code: "agents and mindreaders that set no temperature sample at 1.0, as SOTOPIA's runner scripts (--agent-temperature code)",
      paper: "agents and mindreaders that set no temperature sample at 0.7, as the paper's text (--agent-temperature paper)",
    },
  }),
  replyReading: setting({
    flag: 'reply-reading',
    kind: 'choice',
    choices: ReplyReading.options,
    metavar: ReplyReading.options.join('|'),
    describe:
      "paper: how an agent's JSON reply is read: code (default, as SOTOPIA's parser: the first { to the last }, both keys, one of the five exact types; anything else gets the reformat request) or lenient (Parley's: key synonyms, type spellings, wrapped objects; counted as lenient repairs)",
    flags: 'config',
    config: ReplyReading,
    // Absent in run.json files written before the setting existed: those runs read replies leniently.
    recorded: ReplyReading.default('lenient'),
    only: ['paper'],
    fork: 'live',
    // As agentTemperature's: named when it is not the reading of the runs recorded before it existed.
    idPart: (v) => (v !== 'lenient' ? `reading:${String(v)}` : null),
    card: (v) => (v === 'code' ? "agents' replies read as SOTOPIA's parser read them (`--reply-reading code`)" : ''),
  }),
  leakJudgeOnly: setting({
    flag: 'leak-judge-only',
    kind: 'list',
    choices: JudgeOnlyLeakTarget.options,
    metavar: JudgeOnlyLeakTarget.options.join(','),
    describe: "reproduce SOTOPIA's environment view (judge-only text, e.g. the MutualFriends answer) for these generators",
    flags: 'config',
    config: z.array(JudgeOnlyLeakTarget),
    recorded: z.array(JudgeOnlyLeakTarget).default([]),
    fork: 'prefix',
    idPart: (v) => (Array.isArray(v) && v.length ? `leak:${[...v].sort().join('+')}` : null),
    card: (v, esc) => (Array.isArray(v) && v.length ? `judge-only text sent to ${v.map(esc).join(', ')} (as SOTOPIA's code did)` : 'judge-only text to the judge only'),
  }),
  showRelationshipStory: setting({
    flag: 'show-relationship-story',
    kind: 'boolean',
    describe: "send the relationship background story to the generators (LEAKS: SOTOPIA's stories often name secrets)",
    flags: 'config',
    config: z.boolean(),
    recorded: z.boolean().default(false),
    fork: 'prefix',
    idPart: (v) => (v === true ? 'story' : null),
    card: (v) => (v === true ? 'relationship story sent to the generators (it may name secrets)' : 'relationship story to the judge only'),
  }),
  onUnparsable: setting({
    flag: 'on-unparsable',
    kind: 'choice',
    choices: OnUnparsable.options,
    metavar: OnUnparsable.options.join('|'),
    describe: 'an agent reply (or script) still unreadable after one reformat request: a counted none turn and the episode goes on (default under paper, as SOTOPIA) or an explicit policy/unparsable failure (default under parley)',
    flags: 'config',
    config: OnUnparsable,
    // Absent in run.json files written before the switch existed: those runs failed such turns.
    recorded: OnUnparsable.default('fail'),
    fork: 'live',
    // Only a departure from the protocol's own default is named, so the ids of runs from before the switch stay as they were.
    idPart: (v, d) => (v !== d.onUnparsable ? `unparsable:${String(v)}` : null),
    card: (v) => (v === 'none' ? UNPARSABLE_WORDS.none : UNPARSABLE_WORDS.fail),
    words: {
      none: 'still unreadable, the turn is a counted none and the episode goes on (an empty script for a script writer) (--on-unparsable none)',
      fail: 'still unreadable, the episode fails (--on-unparsable fail)',
    },
  }),
  onProviderError: setting({
    flag: 'on-provider-error',
    kind: 'choice',
    choices: OnProviderError.options,
    metavar: OnProviderError.options.join('|'),
    describe:
      "a seat's LLM call that still fails after the client's retries (HTTP error, rate limit, timeout, connection): a counted none turn, an empty script for a script writer, and the episode goes on (default under paper, as SOTOPIA's code) or the episode fails (default under parley)",
    flags: 'config',
    config: OnProviderError,
    // Absent in run.json files written before the switch existed: those runs failed such episodes.
    recorded: OnProviderError.default('fail'),
    fork: 'live',
    // Only a departure from the protocol's own default is named, so ids of runs from before the switch stay as they were.
    idPart: (v, d) => (v !== d.onProviderError ? `provider-error:${String(v)}` : null),
    card: (v) => (v === 'none' ? PROVIDER_ERROR_WORDS.none : PROVIDER_ERROR_WORDS.fail),
    words: {
      none: "an LLM call failed after its retries: the turn is a counted none (a script writer's: an empty script) and the episode goes on (--on-provider-error none)",
      fail: 'an LLM call failed after its retries: the episode fails (--on-provider-error fail)',
    },
  }),
  selection: setting({
    flag: 'selection',
    kind: 'choice',
    choices: Selection.options,
    metavar: Selection.options.join('|'),
    describe:
      "which draws count: first-valid (default under paper, SOTOPIA's procedure) re-draws an episode of 5 or fewer moves or script turns, and with --redraw one the judge could not score, " +
      'with the next draw (at most 5 draws; every draw kept in episodes.jsonl, marked counted or superseded); all (default under parley) counts every episode',
    flags: 'config',
    config: Selection,
    // Absent in run.json files written before the rule existed: every episode of those runs counted.
    recorded: Selection.default('all'),
    // A fork's episodes are forks of one recorded episode: none is re-drawn (orchestrator/run/selection.ts).
    fork: 'live',
    // Which draws count does not change what an episode is: ids stay as they were (a re-draw adds its draw number itself).
    card: (v) => (v === 'first-valid' ? 'counted: the first valid draw of each instance, short and unscored draws re-drawn (`selection: first-valid`)' : ''),
    words: {
      'first-valid': "the first valid draw of each instance counts: an episode of 5 or fewer moves or script turns is re-drawn (SOTOPIA's procedure; --selection first-valid)",
      all: 'every episode counts (--selection all)',
    },
  }),
  persona: setting({
    flag: 'persona',
    kind: 'choice',
    choices: PersonaRendering.options,
    metavar: PersonaRendering.options.join('|'),
    describe: "parley: how characters' profiles are written into the agents' and script writer's prompts: prose (default, sentences) or fields (one labelled line per field)",
    flags: 'config',
    config: PersonaRendering,
    // Absent in run.json files written before the setting existed: those runs rendered prose.
    recorded: PersonaRendering.default('prose'),
    only: ['parley'],
    fork: 'prefix',
    idPart: (v, d) => (v !== d.persona ? `persona:${String(v)}` : null),
    card: (v) => (v === 'fields' ? 'profiles rendered as labelled fields (`--persona fields`)' : ''),
    words: {
      prose: 'profiles written as sentences (--persona prose)',
      fields: 'profiles written as one labelled line per field (--persona fields)',
    },
  }),
  mindread: setting({
    flag: 'mindread',
    kind: 'text',
    metavar: 'all|MAP',
    describe: "mindreaders mode: who reads whose private state, 'all' (default) or e.g. 'agent1<-agent2,agent3;agent2<-agent1'",
    flags: 'config',
    config: z.string().max(2000),
    experiment: z.string().min(1).max(2000),
    // Resolved against the scenarios' seats by the run (orchestrator/run/protocol.ts); absent: everyone reads everyone.
    recorded: MindreadGraph.optional(),
    // The grammar now; the seat names once the scenarios are loaded.
    check: (text) => {
      const parsed = parseMindread(text);
      return parsed.ok ? null : parsed.message;
    },
    idPart: (v) => (v && typeof v === 'object' ? `mindread:${mindreadKey(v as MindreadGraph)}` : null),
    card: (v, esc) => {
      if (!v || typeof v !== 'object') return '';
      const edges = Object.entries(v as Record<string, unknown>)
        .filter((e): e is [string, string[]] => Array.isArray(e[1]))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([reader, sources]) => `${esc(reader)} reads ${sources.map(esc).join(', ')}`);
      return edges.length ? `mindreaders mode reads only along \`--mindread\`: ${edges.join('; ')}` : '';
    },
  }),
  judgeView: setting({
    flag: 'judge-view',
    kind: 'choice',
    choices: JudgeView.options,
    metavar: JudgeView.options.join('|'),
    describe: "what the judge is shown, recorded with the run as parley eval's default (default: paper for --protocol paper runs, else parley)",
    flags: 'run',
    config: JudgeView,
    experiment: z.enum(JudgeView.options, { error: choiceError('a judge view', JudgeView.options) }),
    arm: true,
    words: Object.fromEntries(Object.entries(JUDGE_VIEW_FACTS).map(([view, v]) => [view, v.words])),
  }),
  // A new setting is one more entry here (issue 42's selection rule and naturalness orders are meant to
  // be): its flag, experiment key and run-config field follow; with `recorded`, its place in run.json's
  // protocol, the episode id (`idPart`) and the card (`card`), and each definition gives its default.
};

export type Settings = typeof SETTINGS;
export type SettingKey = keyof Settings;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

/** The settings recorded in the resolved protocol (all but the protocol's own name and the judge view). */
type RecordedKey = { [K in SettingKey]: [Exclude<Settings[K]['recorded'], undefined>] extends [never] ? never : K }[SettingKey];
type RecordedShape = { [K in RecordedKey]: Exclude<Settings[K]['recorded'], undefined> };

const recordedShape = Object.fromEntries(SETTING_KEYS.flatMap((k) => (SETTINGS[k].recorded ? [[k, SETTINGS[k].recorded]] : []))) as RecordedShape;

/** The settings' fields of the run config (orchestrator/run-config.ts): each optional, unset = the protocol's default. */
export const runConfigSettingsShape = Object.fromEntries(SETTING_KEYS.map((k) => [k, SETTINGS[k].config.optional()])) as {
  [K in SettingKey]: z.ZodOptional<Settings[K]['config']>;
};

/** An experiment file's keys for the settings, run-wide ones and per-arm ones apart (cli/experiment.ts). */
export function experimentSettingsShape(arm: boolean): Record<string, z.ZodType> {
  return Object.fromEntries(SETTING_KEYS.filter((k) => (SETTINGS[k].arm === true) === arm).map((k) => [k, SETTINGS[k].experiment ?? SETTINGS[k].config]));
}

/** The flag of a setting's key, e.g. `--script-format` for `scriptFormat`. */
export function flagOf(key: SettingKey): string {
  return `--${SETTINGS[key].flag}`;
}

/**
 * The protocol of a run, resolved and recorded in run.json (`protocol`) and on the simulation card: the
 * protocol's name and every setting of the protocol, each the user's or the protocol's default.
 */
export const SimulationProtocol = z.object({ name: ProtocolName, ...recordedShape });
export type SimulationProtocol = z.infer<typeof SimulationProtocol>;

/** The words of one value of a setting (the dry run and the card say them). */
export function settingWords(key: SettingKey, value: string): string {
  const words: Readonly<Record<string, string>> | undefined = SETTINGS[key].words;
  return words?.[value] ?? value;
}

/** Settings of the resolved protocol, in declaration order (the episode id and the card list them in it). */
export const RECORDED_KEYS = SETTING_KEYS.filter((k) => SETTINGS[k].recorded) as RecordedKey[];

export type { ProtocolDefinition };
