import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../disk/package-root.js';
import { citeFooter } from './cite.js';

describe('how to cite', () => {
  it("CITATION.cff parses as YAML and names package.json's version and the paper", () => {
    const cff = parse(readFileSync(packagePath('CITATION.cff'), 'utf8')) as { 'cff-version': string; version: string; title: string; references: { doi: string; year: number }[] };
    const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
    expect(cff['cff-version']).toBe('1.2.0');
    expect(cff.version).toBe(pkg.version);
    expect(cff.references[0]).toMatchObject({ doi: '10.18653/v1/2024.emnlp-main.1208', year: 2024 });
  });

  it("the report's footer names Parley's version and the paper", () => {
    const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
    const text = citeFooter().join('\n');
    expect(text).toContain(`Parley ${pkg.version}`);
    expect(text).toContain('Misleading Success of Simulating Social Interactions With LLMs');
  });
});
