/** The vendors whose organisation usage and cost reports a spend connector reads. */
export const usageReportVendors = ['openai', 'anthropic'] as const;
export type UsageReportVendor = (typeof usageReportVendors)[number];

/** One vendor-reported UTC day for one model: what the vendor billed, whichever way the calls reached it. */
export interface DailyModelTotal {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  model: string;
  /** Null when the vendor's report does not count requests (Anthropic's does not). */
  requests: number | null;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Millionths of a US dollar, summed as integers so many small amounts do not drift. */
  costMicros: number;
}

/** The UTC days a report covers: `[startDay, endDay)`. */
export interface ReportWindow {
  startDay: string;
  endDay: string;
}

export interface UsageReportRequest {
  baseUrl: string;
  adminKey: string;
  window: ReportWindow;
}
