import { z } from 'zod';
import { DailyTotals } from './daily-totals.js';
import { fetchReportPages, reportUrl, type PageLimits, type ReportHttp } from './fetch-report-pages.js';
import type { DailyModelTotal, UsageReportRequest } from './usage-report.types.js';

const bucket = <Result extends z.ZodType>(result: Result) =>
  z.object({ starting_at: z.string(), results: z.array(result) });
const page = <Result extends z.ZodType>(result: Result) =>
  z.object({ data: z.array(bucket(result)), has_more: z.boolean(), next_page: z.string().nullish() });

const messagesResult = z.object({
  model: z.string().nullish(),
  uncached_input_tokens: z.number().default(0),
  cache_read_input_tokens: z.number().default(0),
  cache_creation: z
    .object({ ephemeral_1h_input_tokens: z.number().default(0), ephemeral_5m_input_tokens: z.number().default(0) })
    .partial()
    .nullish(),
  output_tokens: z.number().default(0),
});
// The cost report's amount is a decimal string in the currency's lowest unit (cents for USD).
const costResult = z.object({
  model: z.string().nullish(),
  amount: z.string().regex(/^-?\d+(\.\d+)?$/),
  currency: z.string().default('USD'),
});

// The daily-bucket maximum of both reports.
const bucketsPerPage = '31';
const anthropicVersion = '2023-06-01';

/**
 * Anthropic's Admin API reports with an admin key (`sk-ant-admin…`): `GET /v1/organizations/usage_report/messages`
 * grouped by model for tokens and `GET /v1/organizations/cost_report` grouped by description (which carries the
 * model) for dollars; daily buckets paged with `page`/`next_page`. The usage report counts no requests.
 */
export async function fetchAnthropicDailyTotals(
  request: UsageReportRequest,
  http: ReportHttp,
  limits?: PageLimits,
): Promise<DailyModelTotal[]> {
  const headers = { 'x-api-key': request.adminKey, 'anthropic-version': anthropicVersion, accept: 'application/json' };
  const range = {
    starting_at: `${request.window.startDay}T00:00:00Z`,
    ending_at: `${request.window.endDay}T00:00:00Z`,
    bucket_width: '1d',
    limit: bucketsPerPage,
  };
  const totals = new DailyTotals(request.window);
  const usage = await fetchReportPages(
    {
      vendorName: 'Anthropic',
      url: reportUrl(request.baseUrl, '/v1/organizations/usage_report/messages', { ...range, 'group_by[]': 'model' }),
      headers,
      page: page(messagesResult),
    },
    http,
    limits,
  );
  for (const day of usage) {
    for (const result of day.results) {
      const cacheWrites =
        (result.cache_creation?.ephemeral_1h_input_tokens ?? 0) +
        (result.cache_creation?.ephemeral_5m_input_tokens ?? 0);
      totals.addUsage(day.starting_at.slice(0, 10), result.model, {
        inputTokens: result.uncached_input_tokens + result.cache_read_input_tokens + cacheWrites,
        outputTokens: result.output_tokens,
        cachedInputTokens: result.cache_read_input_tokens,
      });
    }
  }
  const costs = await fetchReportPages(
    {
      vendorName: 'Anthropic',
      url: reportUrl(request.baseUrl, '/v1/organizations/cost_report', { ...range, 'group_by[]': 'description' }),
      headers,
      page: page(costResult),
    },
    http,
    limits,
  );
  for (const day of costs) {
    for (const result of day.results) {
      if (result.currency.toUpperCase() === 'USD')
        totals.addCost(day.starting_at.slice(0, 10), result.model, Number(result.amount) / 100);
    }
  }
  return totals.list();
}
