import { describeReadmeShard } from './readme-shard.js';

// The README test, shard 2 of SHARDS (test/readme/readme-shard.ts says how the blocks are split).
describeReadmeShard(2);
