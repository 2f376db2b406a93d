/** The simulation protocols, one definition each, and the settings every run is shaped by (issue 34). Pure. */
export * from './definition.js';
export * from './values.js';
export * from './protocols.js';
export * from './settings.js';
export * from './resolved.js';
export * from './seat-capabilities.js';
export * from './judge-views.js';
