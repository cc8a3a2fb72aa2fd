import type { MeterReport } from '@gw/contracts';

/** Accepted reports in arrival order, each counted once: `reportId` is the idempotency key. */
export class MeterLedger {
  readonly reports: MeterReport[] = [];
  readonly #seen = new Set<string>();

  /** Returns false for a repeat, which is answered like the first but not recorded again. */
  record(report: MeterReport): boolean {
    if (this.#seen.has(report.reportId)) return false;
    this.#seen.add(report.reportId);
    this.reports.push(report);
    return true;
  }
}
