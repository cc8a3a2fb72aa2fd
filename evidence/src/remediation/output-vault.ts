import { Keyring } from '@gw/platform';

/** Remediation output is kept to 8 KiB, its beginning and its end. */
export const maxRetainedOutputBytes = 8 * 1024;

/**
 * Cut an output to `maxBytes` of UTF-8, keeping its beginning and its end (where a script says what it did and how
 * it ended) around a marker that says how much was dropped. Cuts fall on character boundaries.
 */
export function truncateOutput(output: string, maxBytes = maxRetainedOutputBytes): string {
  const bytes = Buffer.from(output, 'utf8');
  if (bytes.length <= maxBytes) return output;
  const markerBudget = 64;
  const half = Math.floor((maxBytes - markerBudget) / 2);
  let headEnd = half;
  while (headEnd > 0 && isContinuationByte(bytes[headEnd])) headEnd -= 1;
  let tailStart = bytes.length - half;
  while (tailStart < bytes.length && isContinuationByte(bytes[tailStart])) tailStart += 1;
  const omitted = tailStart - headEnd;
  return `${bytes.subarray(0, headEnd).toString('utf8')}\n… ${omitted} bytes omitted …\n${bytes.subarray(tailStart).toString('utf8')}`;
}

function isContinuationByte(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0b1100_0000) === 0b1000_0000;
}

/**
 * Remediation-output retention: on only when `GW_CONTENT_KEY` is set and `GW_CONTENT_MODE` is not
 * `off`. Output is truncated, then sealed with AES-256-GCM bound to its execution id, so a sealed value moved to
 * another row does not open.
 */
export class OutputVault {
  readonly #keyring: Keyring;

  constructor(contentKeyHex: string) {
    this.#keyring = Keyring.fromHexKey(contentKeyHex);
  }

  seal(executionId: string, output: string): string {
    return this.#keyring.encrypt(truncateOutput(output), `remediation-output:${executionId}`);
  }

  /** Throws `DecryptError` for a value sealed under another key or for another execution. */
  open(executionId: string, sealed: string): string {
    return this.#keyring.decryptString(sealed, `remediation-output:${executionId}`);
  }
}

export function outputVaultOf(config: {
  GW_CONTENT_KEY?: string | undefined;
  GW_CONTENT_MODE: 'off' | 'full';
}): OutputVault | null {
  return config.GW_CONTENT_KEY && config.GW_CONTENT_MODE !== 'off' ? new OutputVault(config.GW_CONTENT_KEY) : null;
}
