import type { Clock, Logger } from '@gw/platform';
import { fetchAnthropicDailyTotals } from '../../../providers/usage-reports/anthropic-usage-report.js';
import { addDays, dayOf } from '../../../providers/usage-reports/daily-totals.js';
import type { PageLimits, ReportHttp } from '../../../providers/usage-reports/fetch-report-pages.js';
import { fetchOpenAiDailyTotals } from '../../../providers/usage-reports/openai-usage-report.js';
import { UsageReportError } from '../../../providers/usage-reports/usage-report-error.js';
import type {
  DailyModelTotal,
  ReportWindow,
  UsageReportRequest,
  UsageReportVendor,
} from '../../../providers/usage-reports/usage-report.types.js';
import type { SyncResult } from './spend-connector.schema.js';
import type { ConnectorCredentials, SpendConnectorStore } from './spend-connector.store.js';

const readers: Readonly<
  Record<
    UsageReportVendor,
    (request: UsageReportRequest, http: ReportHttp, limits?: PageLimits) => Promise<DailyModelTotal[]>
  >
> = {
  openai: fetchOpenAiDailyTotals,
  anthropic: fetchAnthropicDailyTotals,
};

export interface SpendConnectorSyncDeps {
  store: SpendConnectorStore;
  http: ReportHttp;
  clock: Clock;
  logger: Logger;
  limits?: PageLimits;
}

/**
 * Pulls each configured vendor's organisation reports for the last `days` UTC days (today included, so today's
 * partial totals are refreshed) and stores them in one transaction per connector: a sync that fails anywhere stores
 * nothing for that vendor and says why.
 */
export class SpendConnectorSync {
  constructor(private readonly deps: SpendConnectorSyncDeps) {}

  windowOf(days: number): ReportWindow {
    const endDay = addDays(dayOf(this.deps.clock.now()), 1);
    return { startDay: addDays(endDay, -days), endDay };
  }

  async syncAll(days: number): Promise<SyncResult[]> {
    const results: SyncResult[] = [];
    for (const vendor of ['openai', 'anthropic'] as const) results.push(await this.syncOne(vendor, days));
    return results;
  }

  private async syncOne(vendor: UsageReportVendor, days: number): Promise<SyncResult> {
    let credentials: ConnectorCredentials | null;
    try {
      credentials = await this.deps.store.credentials(vendor);
    } catch (error) {
      // A keystore key that changed since the credential was sealed: the operator must set the key again.
      this.deps.logger.warn({ err: error, vendor }, 'spend connector credential could not be unsealed');
      const message = 'The stored admin key cannot be decrypted with the current keystore key; set it again.';
      await this.deps.store.recordFailure(vendor, message);
      return { vendor, outcome: 'failed', error: { code: 'credentials_unreadable', message } };
    }
    if (!credentials) return { vendor, outcome: 'skipped', reason: 'no admin key configured' };
    const window = this.windowOf(days);
    const range = { from: window.startDay, to: addDays(window.endDay, -1) };
    let totals: DailyModelTotal[];
    try {
      totals = await readers[vendor](
        { baseUrl: credentials.baseUrl, adminKey: credentials.adminKey, window },
        this.deps.http,
        this.deps.limits,
      );
    } catch (error) {
      if (!(error instanceof UsageReportError)) throw error;
      await this.deps.store.recordFailure(vendor, error.message);
      return { vendor, outcome: 'failed', ...range, error: { code: error.code, message: error.message } };
    }
    if (!(await this.deps.store.replaceTotals(vendor, window, totals)))
      return { vendor, outcome: 'skipped', reason: 'connector removed during the sync' };
    return { vendor, outcome: 'synced', ...range, rows: totals.length };
  }
}
