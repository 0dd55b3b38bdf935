import { describe, expect, it } from 'vitest';
import { formatReuse, measuredLines, reuseFigures, similarity } from '../../scripts/schemaReuse';

const lines = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `"${prefix}${i}": ${i},`);
const file = (name: string, body: string[]) => ({ file: name, text: ['{', ...body.map((line) => `  ${line}`), '}', ''].join('\n') });

describe('the schema reuse measure (npm run check summary)', () => {
  it('compares lines without indentation, trailing commas or blank lines', () => {
    expect(measuredLines('{\n    "a": 1,\n\n  "b": 2\n}\n')).toEqual(['{', '"a": 1', '"b": 2', '}']);
  });

  it('counts a line as repeated only inside a run of 8 lines found at another place', () => {
    const shared = lines('s', 8);
    // a: { + 8 shared + 4 own + }  b: { + 3 own + 8 shared + } : the shared run repeats, nothing else.
    const figures = reuseFigures([file('a.json', [...shared, ...lines('a', 4)]), file('b.json', [...lines('b', 3), ...shared])]);
    expect(figures.lines).toBe(14 + 13);
    expect(figures.repeatedLines).toBe(16);
    expect(figures.repeatedShare).toBeCloseTo(16 / 27);
  });

  it('does not count a run of 7 shared lines, and counts a run repeated within one file', () => {
    // (the braces around a file are lines too: own lines on both sides keep the run at 7)
    expect(reuseFigures([file('a.json', ['"x": 0', ...lines('s', 7), '"x": 1']), file('b.json', ['"y": 0', ...lines('s', 7), '"y": 1'])]).repeatedLines).toBe(0);
    const twice = reuseFigures([file('a.json', [...lines('s', 8), '"x": 0', ...lines('s', 8)])]);
    expect(twice.repeatedLines).toBe(16);
  });

  it('pairs files whose line multisets are at least 80 % alike (Dice)', () => {
    expect(similarity(['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'e'])).toBeCloseTo(0.75);
    expect(similarity(['a', 'a', 'b'], ['a', 'b', 'b'])).toBeCloseTo(4 / 6);
    const base = lines('p', 9);
    const figures = reuseFigures([file('a.json', base), file('b.json', [...base.slice(0, 8), '"other": 1']), file('c.json', lines('q', 9))]);
    // a and b share { } and 8 of their 9 lines: 2·10 / 22 ≈ 0.91; c shares only the braces.
    expect(figures.nearDuplicates).toEqual([{ a: 'a.json', b: 'b.json', similarity: 20 / 22 }]);
  });

  it('says the figures in one summary line', () => {
    const figures = { lines: 200, repeatedLines: 50, repeatedShare: 0.25, nearDuplicates: [{ a: 'a', b: 'b', similarity: 0.9 }] };
    expect(formatReuse(figures)).toBe('模式复用：页面模式与片段共 200 行，其中 50 行（25.0 %）与别处逐字重复（连续 8 行以上），1 对文件相似度 ≥ 80 %');
  });
});
