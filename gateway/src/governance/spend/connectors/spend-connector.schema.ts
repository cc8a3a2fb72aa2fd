import { z } from 'zod';
import { usageReportVendors } from '../../../providers/usage-reports/usage-report.types.js';

export const vendorSchema = z.enum(usageReportVendors);

// A connector entry: `null` or `{}` removes it; `adminKey` sets or rotates the write-only credential; `baseUrl` points
// the connector at a proxy or a simulator (null returns to the vendor's own API).
const connectorChange = z
  .strictObject({
    adminKey: z
      .string()
      .trim()
      .min(8)
      .max(500)
      .optional()
      .describe('The organisation admin key with usage access; write-only, never returned'),
    baseUrl: z
      .string()
      .max(2048)
      .nullable()
      .optional()
      .describe('Another origin for the vendor API (a proxy); default the vendor'),
  })
  .nullable();
export type ConnectorChange = z.infer<typeof connectorChange>;

/** PUT partially sets, rotates or removes write-only credentials: omitted vendors are unchanged. */
export const spendConnectorsPut = z.strictObject({
  openai: connectorChange.optional(),
  anthropic: connectorChange.optional(),
});
export type SpendConnectorsPut = z.infer<typeof spendConnectorsPut>;

const syncFailureCode = z.enum([
  'credentials_rejected',
  'rate_limited',
  'pagination_unbounded',
  'vendor_error',
  'vendor_unreachable',
  'invalid_response',
  'credentials_unreadable',
]);

export const connectorView = z.object({
  vendor: vendorSchema,
  configured: z.boolean(),
  keyHint: z.string().nullable().describe('Last four characters of the admin key, to tell keys apart'),
  baseUrl: z.string(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
  lastSync: z
    .object({
      at: z.string(),
      outcome: z.enum(['synced', 'failed']),
      rows: z.number().int().nullable(),
      error: z.string().nullable(),
    })
    .nullable(),
});
export type ConnectorView = z.infer<typeof connectorView>;
export const connectorsResponse = z.object({ connectors: z.array(connectorView) });

export const syncBody = z
  .strictObject({
    days: z.number().int().min(1).max(90).optional().describe('UTC days to pull, ending today; default 30'),
  })
  // A POST without a body arrives as null.
  .nullish();

export const syncResult = z.object({
  vendor: vendorSchema,
  outcome: z.enum(['synced', 'skipped', 'failed']),
  from: z.string().optional(),
  to: z.string().optional(),
  rows: z.number().int().optional().describe('Day-and-model totals stored'),
  reason: z.string().optional().describe('Why a connector was skipped'),
  error: z.object({ code: syncFailureCode, message: z.string() }).optional(),
});
export type SyncResult = z.infer<typeof syncResult>;
export const syncResponse = z.object({ connectors: z.array(syncResult) });

export const externalUsageQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(90).default(30).describe('UTC days ending today, 1..90'),
});

const side = z.object({
  requests: z.number().nullable(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  costUsd: z.number(),
});
export const externalUsageResponse = z.object({
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
  vendors: z.array(
    z.object({
      vendor: vendorSchema,
      configured: z.boolean(),
      lastSyncAt: z.string().nullable(),
      vendorUsd: z.number(),
      gatewayUsd: z.number(),
      differenceUsd: z.number(),
    }),
  ),
  rows: z.array(
    z.object({
      day: z.string(),
      vendor: vendorSchema,
      model: z.string(),
      vendorReport: side.nullable().describe("What the vendor's own report says (null: not in the report)"),
      gateway: side.nullable().describe("What gw's spend records say (null: no call through gw)"),
      differenceUsd: z.number().describe('Vendor dollars minus gw dollars: what went around the gateway'),
    }),
  ),
});
