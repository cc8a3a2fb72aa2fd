/**
 * Management API v1 bodies (`/admin/v1/*`), declared once: the gateway validates and documents its admin operations
 * with them, the operator's client sends and parses them. Wire shapes only; what the gateway does with a body lives in
 * the gateway.
 */
export * from './common.js';
export * from './admin-access.js';
export * from './admin-keys.js';
export * from './desktop-policy.js';
export * from './key-expiry.js';
export * from './keys.js';
export * from './providers.js';
export * from './routing.js';
export * from './user-caps.js';
