import { decodeOrchestratorFrame, ParentToWorker } from '../protocol/index.js';

/**
 * Frames an agent process decodes once an episode, made up here (every value invented, no scenario or
 * profile of any data set) and decoded once while the start-up snapshot is built (snapshot-entry.ts).
 *
 * Why: zod generates and compiles a parser for each object schema at its first parse. The welcome is the
 * largest frame a seat receives (scenario, its own profile, goal and task, partners, limits, protocol):
 * its first decode cost ~20 ms of CPU in every agent process, `peer.state` ~3 ms, `episode.end` ~2 ms,
 * and later ones 0.1–0.6 ms (bench/start-up.md). The generated parsers depend on the schemas only, never on
 * the values parsed, and the snapshot keeps them with their bytecode, so a process from the blob starts its
 * first episode with them. What is decoded here is thrown away.
 */
const actions = ['none', 'speak', 'non-verbal communication', 'action', 'leave'];
const profile = (name: string) => ({ name, age: 40, occupation: 'o', gender: 'g', pronouns: 'p', publicInfo: 'i', personality: 'q', secret: 's' });
const seatView = (seat: string, task: Record<string, unknown> | null) => ({
  seat,
  profile: profile(seat),
  goal: 'g',
  hints: [{ kind: 'extra_info', text: 't' }],
  task,
});
const tasks: Array<Record<string, unknown> | null> = [
  null,
  { kind: 'mutual_friends', attributes: ['A', 'B'], friends: [{ A: 'a', B: 'b' }] },
  { kind: 'craigslist', role: 'buyer', target: 10, bottomline: null, item: { title: 't', category: 'c', listingPrice: 12, description: 'd' } },
];
const protocols = [
  { name: 'paper', backgrounds: 'code', scriptFormat: 'text', seat: { prompts: 'sotopia', replyFormat: 'in-prompt', taskMoves: false, reformat: 'sotopia', stripOwnName: true } },
  { name: 'parley', backgrounds: 'code', scriptFormat: 'json', seat: { prompts: 'native', replyFormat: 'schema', taskMoves: true, reformat: 'continue', stripOwnName: false } },
];

/** The made-up frames, one welcome per task kind and protocol, then a peer's state and episode ends. */
export function rehearsalFrames(): object[] {
  const frames: object[] = [];
  let n = 0;
  for (const protocol of protocols) {
    for (const task of tasks) {
      frames.push({
        v: 1,
        id: `r${n++}`,
        type: 'seat.welcome',
        episodeId: 'rehearsal.agents.r0.0',
        seat: 'a',
        mode: 'agents',
        scenario: { id: 'rehearsal', kind: task ? task.kind : 'open', text: 'x', seats: ['a', 'b'] },
        self: seatView('a', task),
        partners: [{ seat: 'b', relationship: 0, profile: { name: 'b' } }],
        limits: { maxTurns: 20, turnDeadlineMs: 60_000, actions },
        protocol,
        resume: 'r',
      });
    }
  }
  frames.push({ v: 1, id: `r${n++}`, type: 'peer.state', reason: 'mindreaders', state: seatView('b', tasks[1]!) });
  frames.push({ v: 1, id: `r${n++}`, type: 'episode.end', reason: 'max_turns' });
  frames.push({ v: 1, id: `r${n++}`, type: 'episode.end', reason: 'leave', score: { task: { kind: 'mutual_friends', success: false } } });
  return frames;
}

/**
 * Made-up messages of the pool (protocol/worker-ipc.ts): a process parses a `warm` or `host` first after
 * `ready`, ~4 ms of CPU for that first parse, 0.1 ms later (bench/start-up.md).
 */
export function rehearsalMessages(): object[] {
  const policy = { spec: 'openai:m', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'K', params: { temperature: 1 } };
  return [
    { type: 'warm', policies: [policy] },
    { type: 'host', url: 'ws://127.0.0.1:9/agent', token: 'rehearsal-token', policy: { ...policy, cassetteDir: '/x' } },
    { type: 'drop', token: 'rehearsal-token', reason: 'r' },
  ];
}

/** Decodes each made-up frame and parses each made-up message once (while the snapshot is built); returns how many passed. */
export function rehearseFrameDecodes(): number {
  const frames = rehearsalFrames().filter((f) => decodeOrchestratorFrame(JSON.stringify(f)).ok).length;
  return frames + rehearsalMessages().filter((m) => ParentToWorker.safeParse(m).success).length;
}
