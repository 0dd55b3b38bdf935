import { fuzzShard } from './fuzz';

fuzzShard(1, 2);
