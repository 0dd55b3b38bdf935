import type { SeedData } from './seed';
import type { DeviceTables } from './devices';
import type { Random } from './prng';

/** The demo world's upgrade packages, tasks, app versions, feedback and online configurations (issue 5). */
export function firmwareTables(random: Random, today: Date, fleet: DeviceTables): SeedData {
  void random;
  void today;
  void fleet;
  return [];
}
