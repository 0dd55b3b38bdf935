import type { Random } from './prng';

/** Random-looking text drawn from the seeded generator: keys, ids and tokens of the demo world. */

export const hex = (random: Random, length: number) => Array.from({ length }, () => '0123456789abcdef'[random.int(0, 15)]).join('');
export const alnum = (random: Random, length: number, alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789') =>
  Array.from({ length }, () => alphabet[random.int(0, alphabet.length - 1)]).join('');
export const uuid = (random: Random) => `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-${'89ab'[random.int(0, 3)]}${hex(random, 3)}-${hex(random, 12)}`;
