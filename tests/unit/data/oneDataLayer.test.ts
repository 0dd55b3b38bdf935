// Issue 33's "must show": the console loads through one data layer (src/api/data.ts over
// renderers/data). No screen makes its own AbortController (cancellation is TanStack's signal), no
// rejection is swallowed with `.then(ok, () => undefined)`, no call asks the transport to be
// silent (a query says it handles its errors; the transport tells nobody anyway), and no screen
// casts an error to read its kind (the client rejects with a typed DataError).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', '..');

function sources(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...sources(path));
    else if (/\.(ts|tsx)$/.test(name)) found.push(path);
  }
  return found;
}

/** Each `src/` file outside `src/api/` with the lines that match. */
function offenders(pattern: RegExp): string[] {
  const hits: string[] = [];
  for (const path of sources(join(ROOT, 'src'))) {
    const file = relative(ROOT, path).replace(/\\/g, '/');
    if (file.startsWith('src/api/')) continue;
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (pattern.test(line)) hits.push(`${file}:${index + 1}: ${line.trim()}`);
      });
  }
  return hits;
}

/** The text of each `useEffect(…)` / `useLayoutEffect(…)` call in `text` (brackets counted, strings not parsed). */
function effectBodies(text: string): string[] {
  const bodies: string[] = [];
  for (const match of text.matchAll(/\buse(?:Layout)?Effect\(/g)) {
    let depth = 0;
    for (let at = match.index + match[0].length - 1; at < text.length; at += 1) {
      if (text[at] === '(') depth += 1;
      else if (text[at] === ')' && --depth === 0) {
        bodies.push(text.slice(match.index, at + 1));
        break;
      }
    }
  }
  return bodies;
}

describe('one data layer for the console (issue 33)', () => {
  it('no effect in src/ outside src/api/ loads data (it reads through a query of src/api/data.ts)', () => {
    const loads = /\b(fetchOperation|fetchPage|fetch|api\.(call|page|upload|download))\s*\(|\.fetchQuery\(/;
    const found = sources(join(ROOT, 'src'))
      .map((path) => relative(ROOT, path).replace(/\\/g, '/'))
      .filter((file) => !file.startsWith('src/api/'))
      .flatMap((file) => effectBodies(readFileSync(join(ROOT, file), 'utf8')).filter((body) => loads.test(body)).map((body) => `${file}: ${body.split('\n')[0]}`));
    expect(found).toEqual([]);
    // The scan finds an effect that loads (so an empty list above means something).
    expect(effectBodies("useEffect(() => { void fetchOperation('a.b'); }, []);").filter((body) => loads.test(body))).toHaveLength(1);
  });

  it('no new AbortController in src/ outside src/api/', () => {
    expect(offenders(/new AbortController\b/)).toEqual([]);
  });

  it('no rejection swallowed with .then(ok, () => undefined)', () => {
    expect(offenders(/,\s*\(\)\s*=>\s*undefined\s*\)/)).toEqual([]);
  });

  it('no call option silent (a query or mutation says handlesErrors)', () => {
    // echarts' own `silent` (a series that ignores the mouse) is not a call option.
    expect(offenders(/\bsilent\s*[:?]/).filter((hit) => !hit.startsWith('src/maps/offlineOption.ts:'))).toEqual([]);
  });

  it('no error cast to read its kind (the client rejects with a typed DataError)', () => {
    expect(offenders(/Error\s*&\s*\{\s*kind/)).toEqual([]);
  });
});
