export { installBaseHooks, traceIdHeader } from './base-hooks.js';
export { Lifecycle } from './lifecycle.js';
