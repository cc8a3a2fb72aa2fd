import type { LaneReport, LaneScope } from '../lane-report.js';

/** The report of a call refused before anything was sent (another key's batch or file): its failure, no provider. */
export function refusedReport(scope: LaneScope, thrown: unknown): LaneReport {
  const endpoint = new URL(scope.request.url, 'http://gateway.invalid').pathname;
  return {
    call: { endpoint, body: undefined },
    billingMode: 'api-key',
    selection: null,
    sent: null,
    attempts: 1,
    end: { kind: 'failed', thrown },
  };
}
