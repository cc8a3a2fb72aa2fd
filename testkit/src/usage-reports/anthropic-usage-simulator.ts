import { daysBetween, pageOf, type VendorUsageDay } from './usage-report-days.js';
import { startReportServer, type ReportRouteContext, type UsageReportSimulatorHandle } from './usage-report-server.js';

export interface AnthropicUsageSimulatorOptions {
  /** The Admin API key (`sk-ant-admin…`) the reports accept as `x-api-key`. */
  adminKey: string;
  days?: VendorUsageDay[];
}

const error = (type: string, message: string) => ({ type: 'error', error: { type, message } });

function buckets(context: ReportRouteContext, results: (day: string) => unknown[]) {
  const start = Date.parse(context.query.get('starting_at') ?? '');
  const endParam = context.query.get('ending_at');
  const end = endParam ? Date.parse(endParam) : Date.now();
  return daysBetween(start, end).map((day) => ({
    starting_at: `${day}T00:00:00Z`,
    ending_at: new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().replace('.000', ''),
    results: results(day),
  }));
}

const page = (context: ReportRouteContext, all: unknown[]) => pageOf(all, context.query, context.forever, 7, 31);

/**
 * Anthropic's Admin API usage and cost reports: `GET /v1/organizations/usage_report/messages` (grouped by model) and
 * `GET /v1/organizations/cost_report` (grouped by description; amounts are decimal strings in cents), daily buckets,
 * paged with `limit`, `page` and `next_page`/`has_more`; 401 for a wrong admin key; scripted 429s with `retry-after`.
 */
export function startAnthropicUsageSimulator(
  options: AnthropicUsageSimulatorOptions,
): Promise<UsageReportSimulatorHandle> {
  return startReportServer(
    {
      authorized: (request) =>
        request.headers['x-api-key'] === options.adminKey && typeof request.headers['anthropic-version'] === 'string',
      unauthorized: error('authentication_error', 'invalid x-api-key'),
      rateLimited: error('rate_limit_error', 'Number of requests has exceeded your rate limit.'),
      notFound: error('not_found_error', 'Not found'),
      routes: {
        '/v1/organizations/usage_report/messages': (context) =>
          page(
            context,
            buckets(context, (day) =>
              context.days
                .filter((entry) => entry.day === day)
                .map((entry) => ({
                  uncached_input_tokens: entry.inputTokens - (entry.cachedInputTokens ?? 0),
                  cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
                  cache_read_input_tokens: entry.cachedInputTokens ?? 0,
                  output_tokens: entry.outputTokens,
                  server_tool_use: { web_search_requests: 0 },
                  api_key_id: null,
                  workspace_id: null,
                  model: context.query.getAll('group_by[]').includes('model') ? entry.model : null,
                  service_tier: null,
                  context_window: null,
                })),
            ),
          ),
        '/v1/organizations/cost_report': (context) =>
          page(
            context,
            buckets(context, (day) =>
              context.days
                .filter((entry) => entry.day === day)
                .flatMap((entry) => {
                  const cents = entry.costUsd * 100;
                  const input = Math.round(cents * 0.25 * 1e6) / 1e6;
                  const row = (tokenType: string, amount: number) => ({
                    currency: 'USD',
                    amount: amount.toFixed(6),
                    workspace_id: null,
                    description: `${entry.model} Usage - ${tokenType}`,
                    cost_type: 'tokens',
                    context_window: '0-200k',
                    model: entry.model,
                    service_tier: 'standard',
                    token_type: tokenType,
                  });
                  return [row('uncached_input_tokens', input), row('output_tokens', cents - input)];
                }),
            ),
          ),
      },
    },
    options.days ?? [],
  );
}
