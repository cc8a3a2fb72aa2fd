/**
 * Why a translation failed. `invalid_request` is the client's fault (400 on the client's own envelope);
 * `unsupported_feature` is a valid request that cannot cross families (400, names the feature);
 * `invalid_upstream_response` is the provider's fault (502). None is retryable: the same input
 * fails the same way on every target.
 */
export type TranslationErrorCode = 'invalid_request' | 'unsupported_feature' | 'invalid_upstream_response';

const statusByCode: Record<TranslationErrorCode, number> = {
  invalid_request: 400,
  unsupported_feature: 400,
  invalid_upstream_response: 502,
};

export class TranslationError extends Error {
  override readonly name = 'TranslationError';
  readonly status: number;
  readonly retryable = false;

  constructor(
    readonly code: TranslationErrorCode,
    message: string,
  ) {
    super(message);
    this.status = statusByCode[code];
  }
}
