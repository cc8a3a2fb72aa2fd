import { z } from 'zod';
import { DailyTotals, dayOf, dayStartMs } from './daily-totals.js';
import { fetchReportPages, reportUrl, type PageLimits, type ReportHttp } from './fetch-report-pages.js';
import type { DailyModelTotal, UsageReportRequest } from './usage-report.types.js';

// Only the fields gw reads (CONVENTIONS.md: minimal wire schemas); the vendor adds others freely.
const bucket = <Result extends z.ZodType>(result: Result) =>
  z.object({ start_time: z.number(), results: z.array(result) });
const page = <Result extends z.ZodType>(result: Result) =>
  z.object({ data: z.array(bucket(result)), has_more: z.boolean(), next_page: z.string().nullish() });

const completionsResult = z.object({
  model: z.string().nullish(),
  input_tokens: z.number().default(0),
  output_tokens: z.number().default(0),
  input_cached_tokens: z.number().default(0),
  num_model_requests: z.number().default(0),
});
const costsResult = z.object({ amount: z.object({ value: z.number() }), line_item: z.string().nullish() });

// The daily-bucket maximum the usage API accepts (the costs API accepts more; one size keeps paging alike).
const bucketsPerPage = '31';

/** A costs `line_item` reads `<model>, input` or `<model>, output`; the model is the part before the comma. */
function modelOfLineItem(lineItem: string | null | undefined): string | null {
  if (!lineItem) return null;
  const comma = lineItem.lastIndexOf(', ');
  return comma > 0 ? lineItem.slice(0, comma) : lineItem;
}

/**
 * OpenAI's organisation reports with an admin key: `GET /v1/organization/usage/completions` grouped by model for
 * tokens and requests, `GET /v1/organization/costs` grouped by line item for dollars; daily buckets, both paged with
 * `page`/`next_page`.
 */
export async function fetchOpenAiDailyTotals(
  request: UsageReportRequest,
  http: ReportHttp,
  limits?: PageLimits,
): Promise<DailyModelTotal[]> {
  const headers = { authorization: `Bearer ${request.adminKey}`, accept: 'application/json' };
  const range = {
    start_time: String(dayStartMs(request.window.startDay) / 1000),
    end_time: String(dayStartMs(request.window.endDay) / 1000),
    bucket_width: '1d',
    limit: bucketsPerPage,
  };
  const totals = new DailyTotals(request.window);
  const usage = await fetchReportPages(
    {
      vendorName: 'OpenAI',
      url: reportUrl(request.baseUrl, '/v1/organization/usage/completions', { ...range, group_by: 'model' }),
      headers,
      page: page(completionsResult),
    },
    http,
    limits,
  );
  for (const day of usage) {
    for (const result of day.results) {
      totals.addUsage(dayOf(day.start_time * 1000), result.model, {
        requests: result.num_model_requests,
        inputTokens: result.input_tokens,
        outputTokens: result.output_tokens,
        cachedInputTokens: result.input_cached_tokens,
      });
    }
  }
  const costs = await fetchReportPages(
    {
      vendorName: 'OpenAI',
      url: reportUrl(request.baseUrl, '/v1/organization/costs', { ...range, group_by: 'line_item' }),
      headers,
      page: page(costsResult),
    },
    http,
    limits,
  );
  for (const day of costs) {
    for (const result of day.results)
      totals.addCost(dayOf(day.start_time * 1000), modelOfLineItem(result.line_item), result.amount.value);
  }
  return totals.list();
}
