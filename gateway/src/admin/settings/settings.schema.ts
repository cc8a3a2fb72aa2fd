import { z } from 'zod';

// The store capacity declaration's minimum.
export const oneGiB = 1024 ** 3;

const contentMode = z
  .enum(['off', 'full'])
  .describe(
    'full: content may be stored encrypted (traces, stash) when GW_CONTENT_KEY is set; off: no new durable content',
  );
const heartbeatTier = z
  .enum(['full', 'aggregate', 'minimal'])
  .describe(
    'Detail of the usage heartbeat sent to the billing service: per-model rollups, org totals, or liveness only',
  );
const seatOverflow = z
  .boolean()
  .describe('Retry a seat without subscription capacity on the organization provider key');
const seatOverflowHourlyMaxRequests = z
  .number()
  .int()
  .min(1)
  .max(1_000_000)
  .describe('Cap on overflow retries per hour (default 60)');
const storeCapacityBytes = z
  .number()
  .int()
  .min(oneGiB)
  .nullable()
  .describe('Declared store capacity in bytes, minimum 1 GiB; null clears. A declaration, not a measurement');
const contentRetentionDays = z
  .number()
  .int()
  .min(1)
  .max(3650)
  .describe(
    'Stored content (trace bodies) older than this many days is purged; the content-free metadata stays (default 30)',
  );
const autoSoftUpdates = z
  .boolean()
  .describe('Apply soft updates (no breaking change) unattended when an updater is installed (default on)');
const identityMode = z
  .enum(['enrolled', 'network-trusted'])
  .describe('enrolled: every /v1 request needs a minted key; network-trusted: isolated networks, single-tenant only');

/** Runtime settings every replica reads from its cache. */
export const runtimeSettings = z.object({
  contentMode,
  contentRetentionDays,
  heartbeatTier,
  seatOverflow,
  seatOverflowHourlyMaxRequests,
  storeCapacityBytes,
  identityMode,
  autoSoftUpdates,
});
export type RuntimeSettings = z.infer<typeof runtimeSettings>;

export const defaultSettings: RuntimeSettings = Object.freeze({
  contentMode: 'full',
  contentRetentionDays: 30,
  heartbeatTier: 'full',
  seatOverflow: false,
  seatOverflowHourlyMaxRequests: 60,
  storeCapacityBytes: null,
  identityMode: 'enrolled',
  autoSoftUpdates: true,
});

/** `PUT /admin/settings`: omitted fields are kept, `storeCapacityBytes: null` clears, unknown fields answer 400. */
export const settingsPutBody = z.strictObject({
  contentMode: contentMode.optional(),
  contentRetentionDays: contentRetentionDays.optional(),
  heartbeatTier: heartbeatTier.optional(),
  seatOverflow: seatOverflow.optional(),
  seatOverflowHourlyMaxRequests: seatOverflowHourlyMaxRequests.optional(),
  storeCapacityBytes: storeCapacityBytes.optional(),
});
export type SettingsPatch = z.infer<typeof settingsPutBody>;

/** The runtime-settings allowlist that `settings:write` may change; any other field needs `settings:content`. */
export const runtimeAllowlist: ReadonlySet<string> = new Set(['seatOverflow', 'seatOverflowHourlyMaxRequests']);

export const settingsResponse = runtimeSettings.extend({
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});

/** `PUT /admin/v1/settings/content`: the content lane on its own, `settings:content`. */
export const contentSettingsPutBody = z.strictObject({
  contentMode: contentMode.optional(),
  contentRetentionDays: contentRetentionDays.optional(),
});

export const contentSettingsResponse = z.object({
  contentMode,
  contentRetentionDays,
  contentKeyConfigured: z
    .boolean()
    .describe('GW_CONTENT_KEY is set: without it no content is stored whatever the mode'),
  storedContent: z.object({
    traces: z.number().int().describe('Traces that still hold sealed content'),
    oldest: z.string().nullable().describe('When the oldest of them was recorded'),
  }),
  lastPurge: z
    .object({ at: z.string(), purged: z.number().int() })
    .nullable()
    .describe('The last retention purge on this replica'),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});

export const identityPutBody = z.strictObject({ identityMode });

/** `PUT /admin/update/settings`: the self-update policy, `settings:update`. */
export const updatesPutBody = z.strictObject({ autoSoftUpdates });

/** Read a stored document field by field, so one bad or retired field never hides the others. */
export function parseSettingsDocument(document: unknown): RuntimeSettings {
  const source = typeof document === 'object' && document !== null ? (document as Record<string, unknown>) : {};
  const result: Record<string, unknown> = { ...defaultSettings };
  for (const [name, schema] of Object.entries(runtimeSettings.shape)) {
    if (!(name in source)) continue;
    const parsed = schema.safeParse(source[name]);
    if (parsed.success) result[name] = parsed.data;
  }
  return result as RuntimeSettings;
}
