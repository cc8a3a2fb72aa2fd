export * from './device-key.js';
export * from './device-certificate.js';
export * from './device-proof.js';
export * from './device-ca-keys.js';
