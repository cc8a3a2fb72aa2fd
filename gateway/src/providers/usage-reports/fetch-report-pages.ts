import type { z } from 'zod';
import { UsageReportError } from './usage-report-error.js';

export interface ReportHttp {
  fetch: typeof fetch;
  sleep(milliseconds: number): Promise<void>;
}

export interface PageLimits {
  /** A vendor that keeps answering `has_more` past this many pages is refused: the sync must end. */
  maxPages: number;
  /** 429 answers honoured per page before the sync gives up. */
  maxRateLimitRetries: number;
  /** The longest `retry-after` the sync waits; a longer one is reported at once. */
  maxRetryAfterMs: number;
  timeoutMs: number;
}

export const defaultPageLimits: PageLimits = {
  maxPages: 40,
  maxRateLimitRetries: 3,
  maxRetryAfterMs: 30_000,
  timeoutMs: 15_000,
};

interface Page<Item> {
  data: Item[];
  has_more: boolean;
  next_page?: string | null | undefined;
}

export interface PagedReport<Item> {
  vendorName: string;
  /** The first page's URL; later pages add `page=<next_page>`. */
  url: URL;
  headers: Record<string, string>;
  page: z.ZodType<Page<Item>>;
}

/** `retry-after` in seconds or as an HTTP date; absent or unreadable means one second. */
function retryAfterMs(header: string | null, now: number): number {
  if (header === null) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - now);
}

async function fetchPage<Item>(
  report: PagedReport<Item>,
  url: URL,
  http: ReportHttp,
  limits: PageLimits,
): Promise<Page<Item>> {
  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    try {
      response = await http.fetch(url, {
        headers: report.headers,
        redirect: 'error',
        signal: AbortSignal.timeout(limits.timeoutMs),
      });
    } catch {
      throw new UsageReportError('vendor_unreachable', `${report.vendorName} did not answer the usage report request.`);
    }
    if (response.status === 429) {
      await response.body?.cancel();
      const wait = retryAfterMs(response.headers.get('retry-after'), Date.now());
      if (attempt >= limits.maxRateLimitRetries || wait > limits.maxRetryAfterMs) {
        throw new UsageReportError(
          'rate_limited',
          `${report.vendorName} rate-limited the usage report (retry-after ${Math.ceil(wait / 1000)}s after ${attempt + 1} ${attempt === 0 ? 'attempt' : 'attempts'}); nothing was stored, sync again later.`,
        );
      }
      await http.sleep(wait);
      continue;
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new UsageReportError(
        'credentials_rejected',
        `${report.vendorName} refused the admin key (HTTP ${response.status}); set an organisation admin key with usage access.`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new UsageReportError(
        'vendor_error',
        `${report.vendorName} answered the usage report with HTTP ${response.status}.`,
      );
    }
    const parsed = report.page.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success)
      throw new UsageReportError(
        'invalid_response',
        `${report.vendorName} answered the usage report with a body gw does not understand.`,
      );
    return parsed.data;
  }
}

/**
 * Every page of a vendor report, following `next_page` while `has_more`, bounded: a vendor that keeps paging (or
 * repeats a cursor) is refused with `pagination_unbounded` rather than read forever.
 */
export async function fetchReportPages<Item>(
  report: PagedReport<Item>,
  http: ReportHttp,
  limits: PageLimits = defaultPageLimits,
): Promise<Item[]> {
  const items: Item[] = [];
  const seenCursors = new Set<string>();
  let url = report.url;
  for (let pages = 1; ; pages += 1) {
    const page = await fetchPage(report, url, http, limits);
    items.push(...page.data);
    if (!page.has_more) return items;
    const cursor = page.next_page;
    if (!cursor)
      throw new UsageReportError(
        'invalid_response',
        `${report.vendorName} said more pages follow but gave no next_page cursor.`,
      );
    if (pages >= limits.maxPages || seenCursors.has(cursor)) {
      throw new UsageReportError(
        'pagination_unbounded',
        `${report.vendorName} kept paginating past ${pages} pages; nothing was stored. Sync fewer days or retry later.`,
      );
    }
    seenCursors.add(cursor);
    url = new URL(report.url);
    url.searchParams.set('page', cursor);
  }
}

/** `base` + `path`, keeping a base URL's own path prefix (a proxy mount such as `https://proxy/openai`). */
export function reportUrl(base: string, path: string, query: Record<string, string>): URL {
  const url = new URL(`${base.replace(/\/+$/, '')}${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.append(name, value);
  return url;
}
