import { ErrorCode } from '../../protocol/index.js';
import { protocolOf, SCRIPT_SEAT } from '../world.js';
import { provenanceOf, type EngineContext, type EngineResult, type EpisodeError } from './engine-types.js';
import { validateScript } from './script-validate.js';
import { SeatWatch } from './seat-watch.js';
import { becomesNone } from './unparsable.js';

/**
 * The `script` episode: the writer received `script.request` when it joined (from `observe()`); it has
 * one turn deadline to answer with `script.submit`, which is validated and turned into the same turn
 * records as a live episode. `script.fail` or an invalid script is an explicit error, never an empty
 * dialogue — except an unreadable script under `--on-unparsable none` (or a failed LLM call under `--on-provider-error none`): SOTOPIA's code then judged an empty
 * interaction (`agenerate_script`'s default value), so the episode ends `ok` with no turns, and the
 * writer's failure is kept on the record (`scriptWriter.unparsable`) and counted.
 */
export async function runScriptEpisode(ctx: EngineContext): Promise<EngineResult> {
  const { world, clock, ports } = ctx;
  const startedAt = clock.now();
  const errors: EpisodeError[] = [];
  const writer = ports.get(SCRIPT_SEAT);
  if (!writer) throw new Error('script mode without a script writer port');
  const deadlineAt = startedAt + world.limits.turnDeadlineMs;
  const watch = new SeatWatch(ctx);
  const base = { errors, seatProvenance: {}, startedAt };

  for (;;) {
    // A rejoining writer gets script.request again from its link's initial frames.
    const got = await watch.next(deadlineAt, () => {});
    if (got.kind === 'deadline') {
      errors.push({ code: ErrorCode.DeadlineMissed, message: `no script within ${world.limits.turnDeadlineMs} ms`, seat: SCRIPT_SEAT });
      return { ...base, turns: [], termination: { reason: 'deadline', seat: SCRIPT_SEAT }, status: 'failed' };
    }
    if (got.kind === 'disconnect') {
      errors.push({ code: got.code, message: got.detail, seat: got.seat });
      return { ...base, turns: [], termination: { reason: 'disconnect', seat: got.seat, detail: got.detail }, status: 'failed' };
    }
    const { frame } = got;
    const asNone = frame.type === 'script.fail' ? becomesNone(frame.error, protocolOf(world)) : null;
    if (frame.type === 'script.fail' && asNone) {
      const why = asNone === 'unparsable'
        ? 'unreadable script after one reformat request: an empty dialogue (--on-unparsable none)'
        : `the writer's LLM call failed after its retries: an empty dialogue (--on-provider-error none): ${frame.error.code}`;
      const termination = { reason: 'script_end' as const, seat: SCRIPT_SEAT, detail: `${why}: ${frame.error.message}`.slice(0, 1000) };
      const kept = asNone === 'unparsable' ? { scriptUnparsable: frame.error } : { scriptProviderError: frame.error };
      return { ...base, turns: [], termination, status: 'ok', scriptMeta: frame.meta, ...kept };
    }
    if (frame.type === 'script.fail') {
      errors.push({ ...frame.error, seat: SCRIPT_SEAT });
      return { ...base, turns: [], termination: { reason: 'policy_error', seat: SCRIPT_SEAT, detail: frame.error.code }, status: 'failed', scriptMeta: frame.meta };
    }
    if (frame.type !== 'script.submit') {
      writer.reject(ErrorCode.UnexpectedFrame, `${frame.type} is not expected in script mode`, frame.id);
      continue;
    }
    const prov = provenanceOf(frame.meta);
    const checked = validateScript(world.scenario, frame.turns, world.limits.maxTurns, clock.now() - startedAt, prov, protocolOf(world));
    if (!checked.ok) {
      writer.reject(ErrorCode.ScriptInvalid, checked.message, frame.id);
      errors.push({ code: ErrorCode.ScriptInvalid, message: checked.message, seat: SCRIPT_SEAT });
      return { ...base, turns: [], termination: { reason: 'script_error', seat: SCRIPT_SEAT, detail: checked.message }, status: 'failed', scriptMeta: frame.meta };
    }
    const termination = checked.dropped > 0
      ? { ...checked.termination, detail: [checked.termination.detail, `${checked.dropped} written turns after the end dropped`].filter(Boolean).join('; ') }
      : checked.termination;
    return { ...base, turns: checked.turns, termination, status: 'ok', scriptMeta: frame.meta };
  }
}
