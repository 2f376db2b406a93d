/** The scenarios library: model, built-in set, file I/O, importers and generators. */
export * from './model.js';
export * from './errors.js';
export * from './builtin.js';
export * from './load.js';
export * from './rng.js';
export * from './generate/mutual-friends.js';
export * from './generate/craigslist.js';
export * from './check.js';
export * from './generate/sources.js';
export * from './generate/llm-tasks.js';
export * from './import/sotopia.js';
export * from './import/cocoa-craigslist.js';
export * from './import/cocoa-mutualfriends.js';
export * from './generate/groups.js';
