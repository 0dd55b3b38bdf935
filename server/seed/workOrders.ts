import type { SeedData } from './seed';
import type { DeviceTables } from './devices';
import type { Random } from './prng';

/** The demo world's work orders of every kind, patrol tasks and materials. */
export function workOrdersTables(random: Random, today: Date, fleet: DeviceTables): SeedData {
  void random;
  void today;
  void fleet;
  return [];
}
