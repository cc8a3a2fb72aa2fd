import { daysBetween, pageOf, type VendorUsageDay } from './usage-report-days.js';
import { startReportServer, type ReportRouteContext, type UsageReportSimulatorHandle } from './usage-report-server.js';

export interface OpenAiUsageSimulatorOptions {
  /** The organisation admin key (`sk-admin-…`) the reports accept as `Authorization: Bearer`. */
  adminKey: string;
  days?: VendorUsageDay[];
}

const secondsOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

function buckets(context: ReportRouteContext, results: (day: string) => unknown[]) {
  const start = Number(context.query.get('start_time')) * 1000;
  const endParam = context.query.get('end_time');
  const end = endParam ? Number(endParam) * 1000 : Date.now();
  return daysBetween(start, end).map((day) => ({
    object: 'bucket',
    start_time: secondsOf(day),
    end_time: secondsOf(day) + 86_400,
    results: results(day),
  }));
}

const page = (context: ReportRouteContext, all: unknown[]) => ({
  object: 'page',
  ...pageOf(all, context.query, context.forever, 7, 31),
});

/**
 * OpenAI's organisation usage and costs APIs: `GET /v1/organization/usage/completions` (grouped by model) and
 * `GET /v1/organization/costs` (grouped by line item, `<model>, input` and `<model>, output`), daily buckets, paged
 * with `limit`, `page` and `next_page`/`has_more`; 401 for a wrong admin key; scripted 429s with `retry-after`.
 */
export function startOpenAiUsageSimulator(options: OpenAiUsageSimulatorOptions): Promise<UsageReportSimulatorHandle> {
  return startReportServer(
    {
      authorized: (request) => request.headers.authorization === `Bearer ${options.adminKey}`,
      unauthorized: {
        error: {
          message: 'Incorrect API key provided.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
      rateLimited: {
        error: {
          message: 'Rate limit reached for organization usage requests.',
          type: 'requests',
          param: null,
          code: 'rate_limit_exceeded',
        },
      },
      notFound: { error: { message: 'Invalid URL', type: 'invalid_request_error', param: null, code: null } },
      routes: {
        '/v1/organization/usage/completions': (context) =>
          page(
            context,
            buckets(context, (day) =>
              context.days
                .filter((entry) => entry.day === day)
                .map((entry) => ({
                  object: 'organization.usage.completions.result',
                  input_tokens: entry.inputTokens,
                  output_tokens: entry.outputTokens,
                  input_cached_tokens: entry.cachedInputTokens ?? 0,
                  input_audio_tokens: 0,
                  output_audio_tokens: 0,
                  num_model_requests: entry.requests,
                  project_id: null,
                  user_id: null,
                  api_key_id: null,
                  model: context.query.getAll('group_by').includes('model') ? entry.model : null,
                  batch: null,
                })),
            ),
          ),
        '/v1/organization/costs': (context) =>
          page(
            context,
            buckets(context, (day) =>
              context.days
                .filter((entry) => entry.day === day)
                .flatMap((entry) => {
                  // A quarter of the day's dollars on input, the rest on output: two line items, as the real report splits them.
                  const input = Math.round(entry.costUsd * 250_000) / 1_000_000;
                  return [
                    {
                      object: 'organization.costs.result',
                      amount: { value: input, currency: 'usd' },
                      line_item: `${entry.model}, input`,
                      project_id: null,
                    },
                    {
                      object: 'organization.costs.result',
                      amount: { value: entry.costUsd - input, currency: 'usd' },
                      line_item: `${entry.model}, output`,
                      project_id: null,
                    },
                  ];
                }),
            ),
          ),
      },
    },
    options.days ?? [],
  );
}
