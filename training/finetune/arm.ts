import { stringify } from 'yaml';
import type { TrainingData } from '../../protocol/index.js';
import type { FinetuneJob } from '../../llm/finetune-api.js';

/** The policy spec that plays a seat with a fine-tuned model (`openai:ft:…`). */
export function fineTunedSpec(job: FinetuneJob): string | null {
  return job.fineTunedModel ? `${job.provider}:${job.fineTunedModel}` : null;
}

/**
 * An experiment-file arm for a finished job: `agent1` played by the fine-tuned model, with the training
 * data recorded so the report's simulation card can name it. Paste it into an experiment file such as
 * `examples/agents-ft.yaml`.
 */
export function experimentArm(job: FinetuneJob, trainingFileName: string | null, seat = 'agent1'): string | null {
  const spec = fineTunedSpec(job);
  if (!spec) return null;
  const trainingData: TrainingData = {
    file: trainingFileName ?? job.trainingFile ?? '(unknown)',
    ...(job.trainingFile ? { fileId: job.trainingFile } : {}),
    ...(job.validationFile ? { validationFile: job.validationFile } : {}),
    job: job.id,
    base: `${job.provider}:${job.baseModel}`,
  };
  return stringify({ [seat]: { spec, params: { temperature: 0.7 }, trainingData } });
}
