// The allowed values a sentence of `npm run check` names (issue 33): all of them for a short list,
// the close ones for a long list (operations, dictionaries, pages, routes), none when none is close.

/** Edit distance of two names (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const kept = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = kept;
    }
  }
  return row[b.length];
}

/** Up to `limit` names close to `name`: a few edits away, else the same but for the last part. */
export function closeNames(name: string, candidates: Iterable<string>, limit = 5): string[] {
  const lower = name.toLowerCase();
  const stem = lower.replace(/[./][^./]*$/, '');
  const scored = [...new Set(candidates)]
    .filter((candidate) => candidate !== name)
    .map((candidate) => ({ candidate, edits: distance(lower, candidate.toLowerCase()) }))
    .sort((a, b) => a.edits - b.edits || a.candidate.localeCompare(b.candidate));
  const near = scored.filter((entry) => entry.edits <= Math.max(2, Math.floor(name.length / 5)));
  const sameStem = stem !== lower && stem.length > 3 ? scored.filter((entry) => entry.candidate.toLowerCase().startsWith(`${stem}${lower[stem.length]}`)) : [];
  return (near.length ? near : sameStem).slice(0, limit).map((entry) => entry.candidate);
}

/** `（相近的有：a、b）`, or nothing. */
export function closeHint(name: string, candidates: Iterable<string>): string {
  const close = closeNames(name, candidates);
  return close.length ? `（相近的有：${close.join('、')}）` : '';
}

/** `（可用：a、b、c）` of a short list. */
export const allowedHint = (names: Iterable<string>): string => `（可用：${[...names].join('、')}）`;
