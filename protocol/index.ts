/** The wire protocol and record formats shared by orchestrator, agent-node and evaluator. Pure: no I/O. */
export * from './action.js';
export * from './codes.js';
export * from './decode.js';
export * from './frames.js';
export * from './meta.js';
export * from './modes.js';
export * from './moves.js';
export * from './profile.js';
export * from './record.js';
export * from './stamp.js';
export * from './task.js';
export * from './version.js';
export * from './views.js';
export * from './policy-config.js';
export * from './worker-ipc.js';
export * from './error-frame.js';
export * from './browser-transport.js';
