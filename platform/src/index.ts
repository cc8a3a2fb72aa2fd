export * from './clock.js';
export * from './config.js';
export * from './crypto.js';
export * from './errors.js';
export * from './logger.js';
export * from './db/index.js';
export * from './http/index.js';
export * from './coord/index.js';
