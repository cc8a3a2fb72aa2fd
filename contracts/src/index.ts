export * from './optimizer-protocol.js';
export * from './crds/index.js';
export * from './evidence-pack.js';
export * from './billing-protocol.js';
export * from './agent-protocol.js';
export * from './optimizer-admin.js';
export * from './device-identity.js';
export * from './optimizer-settings.js';
