// How much of the schema language is written twice (issue 20), for `npm run check`'s summary.
//
// The measure, precisely:
// - The text is every hand-written schema file: the page schemas under schemas/pages and the
//   fragments under schemas/fragments. A file's *lines* are its non-blank lines, each compared
//   with its indentation and a trailing comma removed (re-indenting or reordering a block does
//   not hide a copy).
// - A line *repeats* when it lies inside a run of REPEAT_WINDOW (8) consecutive lines that occurs
//   verbatim at another place: in another file, or elsewhere in the same file. Shorter runs are
//   the language's own vocabulary (`"type": "string"`, `"x-decorator": "FormItem"`, a closing
//   brace) rather than a copied block. `repeatedShare` = repeating lines / all lines.
// - Two files are *near duplicates* when their lines, as multisets, overlap by at least
//   NEAR_DUPLICATE (80 %): Dice's coefficient 2·|A ∩ B| / (|A| + |B|).
// tests/unit/schemaReuse.test.ts works both out on small fixtures.

export const REPEAT_WINDOW = 8;
export const NEAR_DUPLICATE = 0.8;

export interface SchemaText {
  file: string;
  text: string;
}

export interface ReuseFigures {
  lines: number;
  repeatedLines: number;
  /** repeatedLines / lines, 0 when there are no lines. */
  repeatedShare: number;
  /** The file pairs at least NEAR_DUPLICATE alike, most alike first. */
  nearDuplicates: Array<{ a: string; b: string; similarity: number }>;
}

/** A file's lines as the measure compares them. */
export function measuredLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim().replace(/,$/, ''))
    .filter((line) => line !== '');
}

/** Dice's coefficient of two line multisets. */
export function similarity(a: readonly string[], b: readonly string[]): number {
  if (a.length + b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const line of a) counts.set(line, (counts.get(line) ?? 0) + 1);
  let common = 0;
  for (const line of b) {
    const left = counts.get(line) ?? 0;
    if (left > 0) {
      common += 1;
      counts.set(line, left - 1);
    }
  }
  return (2 * common) / (a.length + b.length);
}

export function reuseFigures(files: readonly SchemaText[], window = REPEAT_WINDOW, threshold = NEAR_DUPLICATE): ReuseFigures {
  const lines = files.map((file) => measuredLines(file.text));
  // Each run of `window` lines → how many places hold it.
  const runs = new Map<string, number>();
  const key = (of: readonly string[], start: number) => of.slice(start, start + window).join('\n');
  for (const of of lines) for (let start = 0; start + window <= of.length; start += 1) runs.set(key(of, start), (runs.get(key(of, start)) ?? 0) + 1);
  let total = 0;
  let repeated = 0;
  for (const of of lines) {
    const covered = new Array<boolean>(of.length).fill(false);
    for (let start = 0; start + window <= of.length; start += 1) {
      if ((runs.get(key(of, start)) ?? 0) > 1) covered.fill(true, start, start + window);
    }
    total += of.length;
    repeated += covered.filter(Boolean).length;
  }
  const nearDuplicates: ReuseFigures['nearDuplicates'] = [];
  for (let i = 0; i < files.length; i += 1) {
    for (let j = i + 1; j < files.length; j += 1) {
      const alike = similarity(lines[i], lines[j]);
      if (alike >= threshold) nearDuplicates.push({ a: files[i].file, b: files[j].file, similarity: alike });
    }
  }
  nearDuplicates.sort((x, y) => y.similarity - x.similarity || x.a.localeCompare(y.a));
  return { lines: total, repeatedLines: repeated, repeatedShare: total ? repeated / total : 0, nearDuplicates };
}

/** The summary line of `npm run check`. */
export function formatReuse(figures: ReuseFigures): string {
  const percent = (figures.repeatedShare * 100).toFixed(1);
  return `模式复用：页面模式与片段共 ${figures.lines} 行，其中 ${figures.repeatedLines} 行（${percent} %）与别处逐字重复（连续 ${REPEAT_WINDOW} 行以上），${figures.nearDuplicates.length} 对文件相似度 ≥ ${NEAR_DUPLICATE * 100} %`;
}
