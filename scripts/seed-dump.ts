// Writes the seeded demo world as a PGlite dump: `tsx scripts/seed-dump.ts <file>`. The browser
// suite's servers start from it (`server/main.ts --dump`) instead of each seeding its own.
import { writeSeededDump } from '../server/seed/dump';

const file = process.argv[2];
if (!file) {
  console.error('usage: tsx scripts/seed-dump.ts <file>');
  process.exit(2);
}
await writeSeededDump(file);
