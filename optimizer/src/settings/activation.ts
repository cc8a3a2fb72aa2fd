import { maxEpochMs, parseInstant, isoInstant } from '@gw/platform';
import { optimizerError } from '../errors.js';

/** A first activation must be at least this far ahead. */
export const activationLeadMs = 60_000;

/**
 * RFC 3339 instant (Z or numeric offset) to a UTC ISO string; null when it is not a real instant. Strict, because the
 * value is immutable once stored: an impossible date must be refused, not rolled over to another day and locked in.
 */
export function normalizeInstant(value: string): string | null {
  const parsed = parseInstant(value);
  return parsed === null || parsed > maxEpochMs ? null : isoInstant(parsed);
}

/**
 * The activation rule of `rollouts.agentContinuationV1ActivateAt`: omitted keeps what is stored;
 * first set needs ≥ 60 s lead and is normalized to UTC; once set, the same instant (any spelling) is accepted and
 * anything else, including clearing it, answers 409.
 */
export function nextActivation(
  stored: string | undefined,
  requested: string | null | undefined,
  now: number,
): string | undefined {
  if (requested === undefined) return stored;
  const normalized = requested === null ? null : normalizeInstant(requested);
  // Malformed input is a 400 whether or not an instant is already stored.
  if (requested !== null && normalized === null)
    throw optimizerError('invalid_request', 'rollouts.agentContinuationV1ActivateAt is not a valid instant');
  if (stored !== undefined) {
    if (normalized === stored) return stored;
    throw optimizerError('activation_immutable');
  }
  if (normalized === null) return undefined;
  if (Date.parse(normalized) < now + activationLeadMs) throw optimizerError('activation_too_soon');
  return normalized;
}

/** True from the activation instant on. */
export function isActivated(activateAt: string | undefined, now: number): boolean {
  return activateAt !== undefined && Date.parse(activateAt) <= now;
}
