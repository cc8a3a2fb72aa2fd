export * from './optimizer-protocol.js';
export * from './crds/index.js';
export * from './evidence-pack.js';
