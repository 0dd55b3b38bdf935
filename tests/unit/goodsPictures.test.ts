import { describe, expect, it } from 'vitest';
import { GOODS } from '../../server/seed/mall';
import { goodsGlyphKind, seedGoodsPicture } from '../../server/seed/goodsPictures';

/** Issue 34: every product in the mall had the same picture (one glyph per category). */
describe('the seed\'s goods pictures', () => {
  const shelf = GOODS.filter((goods) => goods.onShelf);
  // Sizes of one product (DN20 and DN25) are the same thing: one glyph.
  const product = (name: string) => name.replace(/\s*DN\d+$/, '');

  it('each kind of goods on the shelf has a glyph of its own; only sizes of one product and the SIM packs share one', () => {
    const byKind = new Map<string, Set<string>>();
    for (const goods of shelf) {
      const kind = goodsGlyphKind(goods.name);
      byKind.set(kind, (byKind.get(kind) ?? new Set()).add(goods.category === 'card' ? 'SIM' : product(goods.name)));
    }
    const shared = [...byKind].filter(([, names]) => names.size > 1).map(([kind, names]) => `${kind}: ${[...names].join('、')}`);
    expect(shared).toEqual([]);
    expect(byKind.size).toBeGreaterThanOrEqual(18);
  });

  it('every cover differs from every other (glyph, colour or caption), and is an inline SVG', () => {
    const covers = shelf.map((goods) => seedGoodsPicture(goods.name, goods.model || goods.name.slice(0, 8), goods.color));
    expect(new Set(covers).size).toBe(covers.length);
    for (const cover of covers) expect(cover.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const svg = Buffer.from(covers[0].split(',')[1], 'base64').toString('utf8');
    expect(svg).toContain('data-kind="water-meter"');
  });
});
