import { describe, expect, it } from 'vitest';
import { barChart, seriesColors } from './svg.js';
import { xmlWellFormedError } from './xml.js';

describe('chart style', () => {
  it('gives two series of the same mode different colours', () => {
    const c = seriesColors(['script', 'agents gpt-4', 'agents mixtral', 'mindreaders gpt-4', 'mindreaders mixtral']);
    expect(new Set(c.values()).size).toBe(5);
    expect(c.get('agents gpt-4')).toBe('#1b9e77');
    expect(c.get('agents mixtral')).not.toBe('#1b9e77');
  });

  it('draws a zero bar visibly, with its value', () => {
    const svg = barChart({ title: 't', yLabel: 'y', yMin: 0, yMax: 1, series: ['script', 'agents'], groups: [{ label: 'g', bars: [{ series: 'script', value: 0, n: 3 }, { series: 'agents', value: 0.5, n: 3 }] }] });
    expect(xmlWellFormedError(svg)).toBeNull();
    const zeroBar = [...svg.matchAll(/<rect [^>]*height="([\d.]+)"[^>]*><title>g · script: /g)][0];
    expect(Number(zeroBar![1])).toBeGreaterThanOrEqual(3);
    expect(svg).toMatch(/>0<\/text>/);
  });
});
