// Writes the seeded demo world as a PGlite dump: `tsx scripts/seed-dump.ts <file>`. `npm test`
// builds one for the server suite and the browser suite's servers (`server/main.ts --dump`);
// a browser run on its own builds its own.
import { writeSeededDump } from '../server/seed/dump';

const file = process.argv[2];
if (!file) {
  console.error('usage: tsx scripts/seed-dump.ts <file>');
  process.exit(2);
}
await writeSeededDump(file);
