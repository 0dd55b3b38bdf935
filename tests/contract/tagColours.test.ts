// Colours carry meaning (issue 34): a tag the console draws is coloured by what its state means
// (success, processing, warning, error, default), from a dictionary item or a rule of the page,
// never by an antd palette name picked by hand in code (a red that means "new" beside a red that
// means "failed").
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const PALETTE = ['magenta', 'red', 'volcano', 'orange', 'gold', 'lime', 'green', 'cyan', 'blue', 'geekblue', 'purple'];
/** `<Tag … color="red"` or `color={'red'}` within one tag's attributes. */
const PALETTE_TAG = new RegExp(`<Tag\\b[^>]*\\bcolor=(?:"|\\{\\s*['"])(${PALETTE.join('|')})\\b`, 'g');
/** A palette name as a string anywhere (a table of state colours: `{ published: 'green' }`). */
const PALETTE_VALUE = new RegExp(`['"](${PALETTE.join('|')})['"]`, 'g');

function sources(folder: string, extension = /\.tsx$/): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path, extension);
    return extension.test(name) ? [path] : [];
  });
}

const found = (pattern: RegExp, extension?: RegExp) =>
  [join(root, 'src'), join(root, 'renderers')]
    .flatMap((folder) => sources(folder, extension))
    .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(pattern)].map((match) => `${relative(root, file)}: ${match[0]}`));

describe('tag colours', () => {
  it('no tag in src/ or renderers/ names an antd palette colour', () => {
    expect(found(PALETTE_TAG)).toEqual([]);
  });

  it('no code in src/ or renderers/ keeps a palette colour for a state (a state takes its dictionary item\'s)', () => {
    expect(found(PALETTE_VALUE, /\.tsx?$/)).toEqual([]);
  });

  it('finds a palette colour where one is written', () => {
    expect('<Tag key={tag} color="red" style={{}}>'.match(PALETTE_TAG)).toHaveLength(1);
    expect('<Tag color="error">'.match(PALETTE_TAG)).toBeNull();
    expect("{ draft: 'default', published: 'green' }".match(PALETTE_VALUE)).toHaveLength(1);
  });
});
