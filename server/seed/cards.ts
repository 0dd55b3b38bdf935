import type { SeedData } from './seed';
import type { DeviceTables } from './devices';
import type { Random } from './prng';

/** The demo world's IoT SIM cards and their order book. */
export function cardsTables(random: Random, today: Date, fleet: DeviceTables): SeedData {
  void random;
  void today;
  void fleet;
  return [];
}
