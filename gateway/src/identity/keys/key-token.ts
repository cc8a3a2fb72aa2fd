import { randomToken, sha256Hex } from '@gw/platform';

export type KeyType = 'client' | 'service';

// Identifier prefixes: client keys `ark_`, service keys `ark_svc_`; 256 bits of randomness each.
const prefixes: Readonly<Record<KeyType, string>> = { client: 'ark_', service: 'ark_svc_' };

export interface MintedToken {
  raw: string;
  hash: string;
  /** Shown in listings so people can tell keys apart; never enough to use. */
  displayPrefix: string;
}

export function mintKeyToken(type: KeyType): MintedToken {
  const raw = `${prefixes[type]}${randomToken(32)}`;
  return { raw, hash: hashKey(raw), displayPrefix: `${raw.slice(0, prefixes[type].length + 4)}…` };
}

export function hashKey(raw: string): string {
  return sha256Hex(raw);
}

/** Only values shaped like our keys are looked up; anything else is `key_unknown` without a store read. */
export function looksLikeClientKey(value: string): boolean {
  return /^ark_[A-Za-z0-9_-]{20,200}$/.test(value);
}
