export { installBaseHooks, traceIdHeader } from './base-hooks.js';
export { Lifecycle } from './lifecycle.js';
export { RequestValidationError, describeIssues, installZodCompilers, zodOpenApiTransform } from './zod-schemas.js';
