import type { Queryable } from '@gw/platform';
import type { UsageReportVendor } from '../../../providers/usage-reports/usage-report.types.js';
import { num, usd, type NumericCell } from '../spend-sql.js';

interface ComparedRow {
  day: string;
  vendor: UsageReportVendor;
  model: string;
  vendor_present: boolean;
  vendor_requests: NumericCell;
  vendor_input: NumericCell;
  vendor_output: NumericCell;
  vendor_cost: NumericCell;
  gw_present: boolean;
  gw_requests: NumericCell;
  gw_input: NumericCell;
  gw_output: NumericCell;
  gw_cost: NumericCell;
}

export interface ComparedSide {
  requests: number | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface ComparedDay {
  day: string;
  vendor: UsageReportVendor;
  model: string;
  vendorReport: ComparedSide | null;
  gateway: ComparedSide | null;
  differenceUsd: number;
}

// gw's own spend per vendor: calls to the vendor's first-party API with an API key (a seat's subscription lane is
// billed on the seat's plan, not on the organisation's usage report). Provider slugs map to vendors by type.
const gatewaySpendSql = `
  SELECT to_char(s.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, p.type AS vendor, s.model AS model,
         count(*) FILTER (WHERE s.outcome <> 'rejected') AS requests,
         sum(s.prompt_tokens) AS input_tokens, sum(s.completion_tokens) AS output_tokens, sum(s.cost_usd) AS cost_usd
    FROM gw_spend s JOIN gw_providers p ON p.slug = s.provider
   WHERE s.ts >= $1::date AND s.ts < $2::date AND p.type IN ('openai', 'anthropic') AND s.billing_mode = 'api-key' AND s.model IS NOT NULL
   GROUP BY 1, 2, 3`;

/** Vendor-reported daily per-model totals beside gw's own, joined on day, vendor and model. */
export async function compareExternalSpend(
  db: Queryable,
  window: { startDay: string; endDay: string },
): Promise<ComparedDay[]> {
  const { rows } = await db.query<ComparedRow>(
    `WITH gw AS (${gatewaySpendSql}),
          vendor AS (SELECT to_char(day, 'YYYY-MM-DD') AS day, vendor, model, requests, input_tokens, output_tokens, cost_usd FROM gw_external_spend WHERE day >= $1::date AND day < $2::date)
     SELECT COALESCE(vendor.day, gw.day) AS day, COALESCE(vendor.vendor, gw.vendor) AS vendor, COALESCE(vendor.model, gw.model) AS model,
            vendor.day IS NOT NULL AS vendor_present, vendor.requests AS vendor_requests, vendor.input_tokens AS vendor_input, vendor.output_tokens AS vendor_output, vendor.cost_usd AS vendor_cost,
            gw.day IS NOT NULL AS gw_present, gw.requests AS gw_requests, gw.input_tokens AS gw_input, gw.output_tokens AS gw_output, gw.cost_usd AS gw_cost
       FROM vendor FULL OUTER JOIN gw ON gw.day = vendor.day AND gw.vendor = vendor.vendor AND gw.model = vendor.model
      ORDER BY 1, 2, 3`,
    [window.startDay, window.endDay],
  );
  return rows.map((row) => {
    const vendorReport = row.vendor_present
      ? {
          requests: row.vendor_requests === null ? null : num(row.vendor_requests),
          inputTokens: num(row.vendor_input),
          outputTokens: num(row.vendor_output),
          costUsd: usd(row.vendor_cost),
        }
      : null;
    const gateway = row.gw_present
      ? {
          requests: num(row.gw_requests),
          inputTokens: num(row.gw_input),
          outputTokens: num(row.gw_output),
          costUsd: usd(row.gw_cost),
        }
      : null;
    return {
      day: row.day,
      vendor: row.vendor,
      model: row.model,
      vendorReport,
      gateway,
      differenceUsd: usd((vendorReport?.costUsd ?? 0) - (gateway?.costUsd ?? 0)),
    };
  });
}
