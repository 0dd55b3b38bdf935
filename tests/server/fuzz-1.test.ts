import { fuzzShard } from './fuzz';

fuzzShard(0, 2);
