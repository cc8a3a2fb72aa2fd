import { z } from 'zod';
import type { Logger } from '@gw/platform';

export interface HoldoutConfig {
  enabled: boolean;
  fraction: number;
  kinds?: string[];
}

/** Reads the optimizer's current holdout config; null when it is unknown (no optimizer, unreachable, refused). */
export type HoldoutConfigSource = () => Promise<HoldoutConfig | null>;

const settingsView = z.looseObject({
  config: z.looseObject({
    holdout: z
      .looseObject({ enabled: z.boolean(), fraction: z.number().min(0).max(1), kinds: z.array(z.string()).optional() })
      .optional(),
  }),
});

export interface OptimizerSettingsReader {
  raw(method: 'GET', path: string, adminToken: string): Promise<{ status: number; body: unknown }>;
}

/**
 * The configured fraction lives in the optimizer's runtime settings, read through its admin route with
 * the shared admin token. Any failure makes the fraction unknown, which only skips the sample-ratio test: the
 * quality-parity report never fails because the optimizer is down.
 */
export function optimizerHoldoutConfig(
  optimizer: OptimizerSettingsReader | null,
  adminToken: string | undefined,
  logger: Logger,
): HoldoutConfigSource {
  return async () => {
    if (!optimizer || !adminToken) return null;
    try {
      const response = await optimizer.raw('GET', '/admin/optimizer/settings', adminToken);
      const parsed = response.status === 200 ? settingsView.safeParse(response.body) : null;
      if (!parsed?.success) {
        logger.warn(
          { status: response.status },
          'optimizer settings unreadable: holdout fraction unknown, sample-ratio test skipped',
        );
        return null;
      }
      return parsed.data.config.holdout ?? { enabled: false, fraction: 0 };
    } catch (error) {
      logger.warn(
        { errName: error instanceof Error ? error.name : 'unknown' },
        'optimizer unreachable: holdout fraction unknown, sample-ratio test skipped',
      );
      return null;
    }
  };
}
