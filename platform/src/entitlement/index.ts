export * from './lease-signature.js';
export * from './lease-verdict.js';
export * from './lease-store.js';
export * from './pinned-lease-keys.js';
export * from './lease-verify-key.js';
