import { describe, expect, it } from 'vitest';
import { confirmOrderPath, parseOrderLines } from '../../src/screens/shopping/shopping';

describe('the confirm-order link of the mall', () => {
  it('reads the lines it carries, a goods once, dropping what is not a line', () => {
    expect(parseOrderLines('GD00001:3,GD00005:1')).toEqual([
      { goodsCode: 'GD00001', quantity: 3 },
      { goodsCode: 'GD00005', quantity: 1 },
    ]);
    expect(parseOrderLines('GD00001:3,GD00001:4, GD00002:0 ,x:1,GD3:2,GD00009:12')).toEqual([
      { goodsCode: 'GD00001', quantity: 3 },
      { goodsCode: 'GD00009', quantity: 12 },
    ]);
    expect(parseOrderLines(null)).toEqual([]);
    expect(parseOrderLines('GD00001:99999')).toEqual([]);
  });

  it('writes the lines it was given, so that reading them back gives them again', () => {
    const lines = [
      { goodsCode: 'GD00001', quantity: 3 },
      { goodsCode: 'GD00018', quantity: 1 },
    ];
    const path = confirmOrderPath(lines);
    expect(path).toBe('/shopping/confirm?items=GD00001%3A3%2CGD00018%3A1');
    expect(parseOrderLines(new URLSearchParams(path.split('?')[1]).get('items'))).toEqual(lines);
  });
});
