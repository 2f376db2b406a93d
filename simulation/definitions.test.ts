import { describe, expect, it } from 'vitest';
import { ProtocolView } from '../protocol/index.js';
import { claimedDefinition, DEFAULT_DEFINITION, DEFINITIONS, definitionOf, findDefinition, recordedDefinition } from './protocols.js';
import { defaultProtocol, isDefaultProtocol, PAPER_PROTOCOL, PARLEY_PROTOCOL, protocolCardLine, protocolKey, protocolView } from './resolved.js';
import { seatCapabilities } from './seat-capabilities.js';
import { RECORDED_KEYS, SETTINGS, SimulationProtocol } from './settings.js';

describe('simulation protocol definitions', () => {
  it('each definition is found by its name, and its defaults are a valid recorded protocol', () => {
    for (const d of DEFINITIONS) {
      expect(findDefinition(d.name)).toBe(d);
      expect(SimulationProtocol.parse(defaultProtocol(d))).toEqual(defaultProtocol(d));
    }
    expect(findDefinition('third')).toBeNull();
    expect(definitionOf('third')).toBe(DEFAULT_DEFINITION);
    expect(definitionOf(undefined)).toBe(DEFAULT_DEFINITION);
  });

  it('keeps the episode-id keys of every earlier run (ids are pinned)', () => {
    // Paper runs recorded before --agent-temperature and --reply-reading sampled agents at 0.7 and read replies
    // leniently (run.json reads them so): their keys, and so their ids, are as they were.
    const earlier = { ...PAPER_PROTOCOL, agentTemperature: 'paper', replyReading: 'lenient' } as const;
    expect(protocolKey(earlier)).toBe('paper/code/text/code');
    expect(protocolKey(PARLEY_PROTOCOL)).toBe('parley');
    expect(protocolKey({ ...earlier, onUnparsable: 'fail', leakJudgeOnly: ['script'], showRelationshipStory: true })).toBe('paper/code/text/code/leak:script/story/unparsable:fail');
    expect(protocolKey({ ...earlier, onProviderError: 'fail' })).toBe('paper/code/text/code/provider-error:fail');
    // Today's paper defaults (SOTOPIA's code: 1.0, its parser) play differently: their ids are new ones.
    expect(protocolKey(PAPER_PROTOCOL)).toBe('paper/code/text/code/temperature:code/reading:code');
    expect(protocolKey({ ...PARLEY_PROTOCOL, onProviderError: 'none' })).toBe('parley/provider-error:none');
    expect(protocolKey({ ...PARLEY_PROTOCOL, mindread: { agent1: ['agent2'] } })).toBe('parley/mindread:agent1<-agent2');
    expect(isDefaultProtocol(PARLEY_PROTOCOL)).toBe(true);
    expect(isDefaultProtocol({ ...PARLEY_PROTOCOL, onUnparsable: 'none' })).toBe(false);
    expect(isDefaultProtocol(PAPER_PROTOCOL)).toBe(false);
  });

  it('a run that names no protocol follows the one that claims its scenarios', () => {
    expect(claimedDefinition([{ source: 'sotopia' }, { source: 'sotopia' }]).name).toBe('paper');
    expect(claimedDefinition([{ source: 'sotopia' }, { source: 'builtin' }]).name).toBe('parley');
    expect(claimedDefinition([]).name).toBe('parley');
  });

  it('reads the protocol a run directory recorded (resolved first, then the config), untrusted values included', () => {
    expect(recordedDefinition({ protocol: { name: 'paper' } }).name).toBe('paper');
    expect(recordedDefinition({ config: { protocol: 'paper' } }).name).toBe('paper');
    expect(recordedDefinition({ protocol: 'paper', config: 7 }).name).toBe('parley');
    expect(recordedDefinition(null).name).toBe('parley');
  });

  it('tells a seat its capabilities; the protocol seats assume when told none is not announced', () => {
    const paper = protocolView(PAPER_PROTOCOL)!;
    expect(ProtocolView.parse(paper)).toEqual(paper);
    expect(paper.seat).toEqual({ prompts: 'sotopia', replyFormat: 'in-prompt', taskMoves: false, reformat: 'sotopia', stripOwnName: true });
    expect(protocolView(PARLEY_PROTOCOL)).toBeUndefined();
    // SOTOPIA's code samples agents at 1.0; the paper's text says 0.7; the script writer is told neither.
    expect([paper.agentTemperature, protocolView({ ...PAPER_PROTOCOL, agentTemperature: 'paper' })!.agentTemperature]).toEqual([1, 0.7]);
    expect(protocolView(PAPER_PROTOCOL, 'script writer')).not.toHaveProperty('agentTemperature');
    // A seat reads the capabilities it was sent, else the named protocol's, else the default's.
    expect(seatCapabilities(undefined)).toEqual(definitionOf('parley').seat);
    expect(seatCapabilities({ name: 'paper', backgrounds: 'code', scriptFormat: 'text' })).toEqual(paper.seat);
    const told = { ...paper.seat!, taskMoves: true };
    expect(seatCapabilities({ name: 'third', backgrounds: 'code', scriptFormat: 'text', seat: told })).toBe(told);
  });

  it('every setting of the resolved protocol is declared once, with a default in every definition', () => {
    for (const d of DEFINITIONS) for (const k of RECORDED_KEYS) if (k !== 'mindread') expect(d.defaults[k], `${d.name}.${k}`).toBeDefined();
    expect(Object.keys(SimulationProtocol.shape).sort()).toEqual(['name', ...RECORDED_KEYS].sort());
    expect(SETTINGS.protocol.choices).toEqual(DEFINITIONS.map((d) => d.name));
  });

  it("says the card's line from the definition and the settings, escaping recorded values", () => {
    const esc = (v: unknown) => `<${String(v)}>`;
    expect(protocolCardLine({ name: 'paper', backgrounds: 'appendix', scriptFormat: 'text', stopRule: 'paper', onUnparsable: 'none', onProviderError: 'none' }, esc)).toBe(
      "paper — SOTOPIA's prompts; backgrounds <appendix>, script format <text>, stop rules as the paper words them; judge-only text to the judge only; relationship story to the judge only; a reply unreadable after one reformat request becomes a counted `none` turn (an unreadable script: an empty one) and the episode goes on (`--on-unparsable none`)" +
        "; an LLM call that failed after its retries becomes a counted `none` turn (a script writer's: an empty script) and the episode goes on (`--on-provider-error none`, as SOTOPIA's code)",
    );
    // A run.json from before the switch records no onProviderError: such runs failed the episode, and the card says so.
    expect(protocolCardLine({ name: 'paper', backgrounds: 'code', scriptFormat: 'text', stopRule: 'code', onUnparsable: 'none' }, esc)).toMatch(/an LLM call that failed after its retries fails the episode \(`--on-provider-error fail`\)$/);
    expect(protocolCardLine({ name: 'parley', mindread: { b: ['a'] } }, esc)).toContain('; mindreaders mode reads only along `--mindread`: <b> reads <a>');
    expect(protocolCardLine('paper', esc)).toBeNull();
    // The agents' temperature: which reading, when the run recorded one (older runs sampled at 0.7 and say nothing).
    const temperature = (agentTemperature?: string) => protocolCardLine({ name: 'paper', backgrounds: 'code', scriptFormat: 'text', stopRule: 'code', ...(agentTemperature ? { agentTemperature } : {}) }, esc);
    expect(temperature('code')).toContain("stop rules as the code runs them; agents and mindreaders that set no temperature sample at 1.0, as SOTOPIA's code (`--agent-temperature code`)");
    expect(temperature('paper')).toContain("sample at 0.7, as the paper's text (`--agent-temperature paper`)");
    expect(temperature()).not.toContain('temperature');
  });
});
