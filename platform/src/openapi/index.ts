export * from './api-reference.js';
export * from './api-reference-drift.js';
export * from './docs-ui-modules.js';
