export * from './api-reference.js';
export * from './api-reference-drift.js';
