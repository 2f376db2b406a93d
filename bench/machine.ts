import { cpus, totalmem, release, platform } from 'node:os';

/** The machine a benchmark ran on (the figures mean little without it). */
export function machine() {
  const cpu = cpus();
  return {
    cores: cpu.length,
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    memoryGB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()}`,
  };
}
