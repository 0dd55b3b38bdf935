import type { SeedData } from './seed';
import type { DeviceTables } from './devices';
import type { Random } from './prng';

/** The demo world's alarm rules and alarm records (issue 5). */
export function alarmsTables(random: Random, today: Date, fleet: DeviceTables): SeedData {
  void random;
  void today;
  void fleet;
  return [];
}
