import { z } from 'zod';

/**
 * What the full LLM judge is shown (docs/fidelity.md, "what the judge sees"): `paper` — exactly SOTOPIA's
 * judge information at the paper's tag, in one user message with the format in the prompt; `parley` —
 * Parley's richer view with structured output. Chosen per evaluation (`parley eval --judge-view`), or
 * recorded with a run (`judgeView` in an experiment file, `parley run --judge-view`) as eval's default;
 * stored with every judgement (`judge.view`). Here, in protocol/, because the run configuration and the
 * evaluator both name it.
 */
export const JudgeView = z.enum(['paper', 'parley']);
export type JudgeView = z.infer<typeof JudgeView>;

/** The view a judge uses when nothing chose one: the paper's for runs of the paper protocol, else Parley's. */
export function defaultJudgeView(protocol: unknown): JudgeView {
  return protocol === 'paper' ? 'paper' : 'parley';
}

/**
 * The view `parley eval` uses: the flag, else the one the run recorded (run.json's `config.judgeView`),
 * else the run protocol's default. A flag that names no view is refused (null); a recorded value that
 * names none (a hand-edited run.json) is ignored like an absent one.
 */
export function resolveJudgeView(flag: string | undefined, recorded: unknown, protocol: unknown): JudgeView | null {
  if (flag !== undefined) {
    const chosen = JudgeView.safeParse(flag);
    return chosen.success ? chosen.data : null;
  }
  const fromRun = JudgeView.safeParse(recorded);
  return fromRun.success ? fromRun.data : defaultJudgeView(protocol);
}
