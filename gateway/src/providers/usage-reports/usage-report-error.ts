/** Why a vendor report could not be read; the sync reports the code and message per connector. */
export type UsageReportFailure =
  | 'credentials_rejected'
  | 'rate_limited'
  | 'pagination_unbounded'
  | 'vendor_error'
  | 'vendor_unreachable'
  | 'invalid_response';

export class UsageReportError extends Error {
  constructor(
    readonly code: UsageReportFailure,
    message: string,
  ) {
    super(message);
    this.name = 'UsageReportError';
  }
}
