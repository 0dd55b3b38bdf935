import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// Packages with published advisories on the versions this project once ran, and the first version
// that fixes them (issue 30). npm's audit endpoint cannot be reached from these machines, so the
// floor is written here and checked against what is installed and what the lock file pins.
const FIXED_IN: Record<string, string> = {
  // Two published high advisories on 9.3.0 (found by the outside review of 2026-12); fixed in 10.1.3.
  '@fastify/static': '10.1.3',
};

const root = new URL('../..', import.meta.url).pathname;
const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')) as { packages: Record<string, { version?: string }> };

/** -1, 0 or 1 as `a` is below, equal to or above `b` (plain x.y.z versions). */
function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((version) => version.split(/[.+-]/).slice(0, 3).map(Number));
  for (let i = 0; i < 3; i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0) ? -1 : 1;
  return 0;
}

describe('dependencies with published advisories', () => {
  for (const [name, fixed] of Object.entries(FIXED_IN)) {
    it(`${name} is at ${fixed} or later, installed and in the lock file`, () => {
      const installed = (JSON.parse(readFileSync(`${root}node_modules/${name}/package.json`, 'utf8')) as { version: string }).version;
      const locked = lock.packages[`node_modules/${name}`]?.version ?? '0.0.0';
      expect(compareVersions(installed, fixed)).toBeGreaterThanOrEqual(0);
      expect(compareVersions(locked, fixed)).toBeGreaterThanOrEqual(0);
    });
  }
  it('compares versions by number, not as text', () => {
    expect(compareVersions('9.3.0', '10.1.3')).toBe(-1);
    expect(compareVersions('10.1.11', '10.1.3')).toBe(1);
    expect(compareVersions('10.1.3', '10.1.3')).toBe(0);
  });
});
