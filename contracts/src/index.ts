export * from './optimizer-protocol.js';
export * from './crds/index.js';
