import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fetchReportPages, type ReportHttp } from './fetch-report-pages.js';
import { UsageReportError } from './usage-report-error.js';

const page = z.object({ data: z.array(z.number()), has_more: z.boolean(), next_page: z.string().nullish() });
const report = { vendorName: 'Vendor', url: new URL('https://vendor.example/v1/report?limit=2'), headers: {}, page };
const limits = { maxPages: 5, maxRateLimitRetries: 2, maxRetryAfterMs: 10_000, timeoutMs: 1000 };

/** A scripted vendor: each call takes the next answer; the URLs asked and the waits requested are recorded. */
function scripted(answers: Array<{ status?: number; body?: unknown; headers?: Record<string, string> }>) {
  const urls: string[] = [];
  const waits: number[] = [];
  const http: ReportHttp = {
    fetch: async (input) => {
      urls.push(input instanceof URL ? input.href : typeof input === 'string' ? input : input.url);
      const answer = answers.shift() ?? { status: 500 };
      return new Response(answer.body === undefined ? 'oops' : JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: answer.headers ?? {},
      });
    },
    sleep: async (milliseconds) => {
      waits.push(milliseconds);
    },
  };
  return { http, urls, waits };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof UsageReportError ? error.code : 'other'),
  );

describe('fetchReportPages', () => {
  it('follows next_page until has_more is false', async () => {
    const vendor = scripted([
      { body: { data: [1, 2], has_more: true, next_page: 'page_a' } },
      { body: { data: [3], has_more: false, next_page: null } },
    ]);
    expect(await fetchReportPages(report, vendor.http, limits)).toEqual([1, 2, 3]);
    expect(vendor.urls).toEqual([
      'https://vendor.example/v1/report?limit=2',
      'https://vendor.example/v1/report?limit=2&page=page_a',
    ]);
  });

  it('refuses a repeated cursor and a page count past the bound', async () => {
    const looping = scripted([
      { body: { data: [1], has_more: true, next_page: 'same' } },
      { body: { data: [1], has_more: true, next_page: 'same' } },
    ]);
    expect(await failureOf(fetchReportPages(report, looping.http, limits))).toBe('pagination_unbounded');
    expect(looping.urls).toHaveLength(2);
    const endless = scripted(
      Array.from({ length: 10 }, (_, index) => ({
        body: { data: [index], has_more: true, next_page: `page_${index}` },
      })),
    );
    expect(await failureOf(fetchReportPages(report, endless.http, limits))).toBe('pagination_unbounded');
    expect(endless.urls).toHaveLength(5);
    expect(
      await failureOf(fetchReportPages(report, scripted([{ body: { data: [], has_more: true } }]).http, limits)),
    ).toBe('invalid_response');
  });

  it('waits out retry-after in seconds or as a date within the bound, then gives up', async () => {
    // Far enough ahead that a slow machine still computes a positive wait.
    const inFiveMinutes = new Date(Date.now() + 300_000).toUTCString();
    const vendor = scripted([
      { status: 429, headers: { 'retry-after': '3' } },
      { status: 429, headers: { 'retry-after': inFiveMinutes } },
      { body: { data: [7], has_more: false } },
    ]);
    expect(await fetchReportPages(report, vendor.http, { ...limits, maxRetryAfterMs: 600_000 })).toEqual([7]);
    expect(vendor.waits[0]).toBe(3000);
    expect(vendor.waits[1]).toBeGreaterThan(200_000);
    expect(vendor.waits[1]).toBeLessThanOrEqual(300_000);
    const stubborn = scripted([
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 429, headers: { 'retry-after': '0' } },
    ]);
    expect(await failureOf(fetchReportPages(report, stubborn.http, limits))).toBe('rate_limited');
    expect(stubborn.urls).toHaveLength(3);
  });

  it('names credentials, vendor errors and unreadable bodies apart', async () => {
    expect(await failureOf(fetchReportPages(report, scripted([{ status: 403, body: {} }]).http, limits))).toBe(
      'credentials_rejected',
    );
    expect(await failureOf(fetchReportPages(report, scripted([{ status: 502, body: {} }]).http, limits))).toBe(
      'vendor_error',
    );
    expect(await failureOf(fetchReportPages(report, scripted([{ status: 200 }]).http, limits))).toBe(
      'invalid_response',
    );
    expect(
      await failureOf(fetchReportPages(report, scripted([{ body: { data: ['x'], has_more: false } }]).http, limits)),
    ).toBe('invalid_response');
  });
});
