import type { SeedData } from './seed';
import type { DeviceTables } from './devices';
import type { Random } from './prng';

/** The demo world's cameras and device telemetry samples (issue 5). */
export function fleetExtrasTables(random: Random, today: Date, fleet: DeviceTables): SeedData {
  void random;
  void today;
  void fleet;
  return [];
}
