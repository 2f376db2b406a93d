import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { jobHead, type FinetuneApi, type FinetuneJob, type ProviderAccess, type StatusWords } from './finetune-api.js';

type OpenAiJob = { id: string; status: string; model: string; fine_tuned_model: string | null; training_file: string; validation_file: string | null; error?: { message?: string } | null };

const STATUS: StatusWords = { queued: ['validating_files', 'queued'], running: ['running'], succeeded: ['succeeded'], failed: ['failed'], cancelled: ['cancelled'] };

function job(j: OpenAiJob): FinetuneJob {
  return {
    ...jobHead('openai', STATUS, j),
    fineTunedModel: j.fine_tuned_model ?? null,
    trainingFile: j.training_file ?? null,
    validationFile: j.validation_file ?? null,
    error: j.error?.message ?? null,
  };
}

/** OpenAI's files and fine-tuning jobs APIs through the official `openai` SDK (any compatible server). */
export async function openAiFinetune(access: ProviderAccess): Promise<FinetuneApi> {
  const { default: OpenAI, toFile } = await import('openai');
  const client = new OpenAI({ apiKey: access.apiKey, ...(access.baseURL ? { baseURL: access.baseURL } : {}) });
  return {
    provider: 'openai',
    async upload(file) {
      const content = await readFile(file);
      const f = await client.files.create({ file: await toFile(content, basename(file)), purpose: 'fine-tune' });
      return { id: f.id, filename: f.filename, bytes: f.bytes };
    },
    async create(o) {
      const j = await client.fineTuning.jobs.create({
        model: o.baseModel,
        training_file: o.trainingFile,
        ...(o.validationFile ? { validation_file: o.validationFile } : {}),
        ...(o.suffix ? { suffix: o.suffix } : {}),
        // Absent: the provider's default, supervised (so a supervised job's request is as it always was).
        ...(o.method === 'dpo' ? { method: { type: 'dpo' as const, dpo: {} } } : {}),
      });
      return job(j as unknown as OpenAiJob);
    },
    async get(id) {
      return job((await client.fineTuning.jobs.retrieve(id)) as unknown as OpenAiJob);
    },
    async filename(id) {
      return (await client.files.retrieve(id)).filename ?? null;
    },
  };
}
