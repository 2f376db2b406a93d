import * as z from 'zod';

/**
 * What the full LLM judge is shown (docs/fidelity.md, "what the judge sees"): `paper` — exactly SOTOPIA's
 * judge information at the paper's tag, in one user message with the format in the prompt; `parley` —
 * Parley's richer view with structured output. Chosen per evaluation (`parley eval --judge-view`), or
 * recorded with a run (`judgeView` in an experiment file, `parley run --judge-view`) as eval's default;
 * stored with every judgement (`judge.view`). Here, in protocol/, because the run configuration and the
 * evaluator both name it; each protocol's default view is its definition's (simulation/).
 */
export const JudgeView = z.enum(['paper', 'parley']);
export type JudgeView = z.infer<typeof JudgeView>;
