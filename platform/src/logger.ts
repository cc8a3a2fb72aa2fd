import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * Secrets never reach logs: redaction is configured here once, not at each call site. Paths cover request headers
 * as fastify serialises them and any object field that carries a credential.
 */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-gw-api-key"]',
  'req.headers.cookie',
  'req.headers["x-gw-poll-secret"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-gw-api-key"]',
  'headers.cookie',
  '*.apiKey',
  '*.api_key',
  '*.providerKey',
  '*.authorization',
  '*.password',
  '*.secret',
  '*.token',
  '*.bearerToken',
  '*.contentKey',
  'apiKey',
  'api_key',
  'authorization',
  'token',
];

export interface LoggerSettings {
  level?: string;
  name: string;
  /** Write destination; tests pass a stream to assert what was logged. */
  destination?: NodeJS.WritableStream;
}

export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    name: settings.name,
    level: settings.level ?? 'info',
    redact: { paths: redactedPaths, censor: '[redacted]' },
    base: { service: settings.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return settings.destination ? pino(options, settings.destination) : pino(options);
}
