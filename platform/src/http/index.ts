export { installBaseHooks, traceIdHeader } from './base-hooks.js';
export { Lifecycle } from './lifecycle.js';
export {
  RequestValidationError,
  describeIssues,
  zodSchemaController,
  zodOpenApiTransform,
  type ZodTypeProvider,
} from './zod-schemas.js';
export { normalizeRequestError } from './request-failure.js';
export type { RequestFailure, RequestFailureKind, RequestFailureOptions } from './request-failure.js';
export { QuietLogController } from './quiet-log-controller.js';
export { installJsonBodyParser } from './json-body-parser.js';
export { installEnvelopeErrorHandler, type EnvelopeErrorHandlerOptions } from './envelope-error-handler.js';
export { clientTimeoutOptions, defaultClientTimeouts, type ClientTimeouts } from './slow-clients.js';
export {
  capUnauthenticatedConnections,
  markConnectionAuthenticated,
  plainAddress,
  type ConnectionCapOptions,
} from './connection-cap.js';
