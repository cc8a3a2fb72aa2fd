import type { Logger } from '../logger.js';

/** The part of the service logger coordination uses: connection trouble and misbehaving subscribers. */
export type CoordLogger = Pick<Logger, 'info' | 'warn'>;
