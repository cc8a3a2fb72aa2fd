export { installBaseHooks, traceIdHeader } from './base-hooks.js';
export { Lifecycle } from './lifecycle.js';
export { RequestValidationError, describeIssues, installZodCompilers, zodOpenApiTransform } from './zod-schemas.js';
export { QuietLogController } from './quiet-log-controller.js';
