import type { Coord } from '@gw/platform';
import type { DecisionPin } from '@gw/contracts';

// Pins are content-free fingerprints and recipes; a day covers any live conversation, then they age out.
const pinTtlMs = 24 * 3_600_000;
const maxPinBytes = 256 * 1024;

/**
 * Decision pins persisted per gateway session (spec 001 §2.3): the array the optimizer returns replaces the stored
 * one verbatim. Shared through Coord so every replica replays the same rewrites; a read error sends no pins (the
 * optimizer then behaves as on a first turn).
 */
export class SessionPins {
  constructor(private readonly coord: Coord) {}

  async load(sessionId: string): Promise<DecisionPin[]> {
    try {
      const stored = await this.coord.getValue(`pins:${sessionId}`);
      const parsed: unknown = stored ? JSON.parse(stored) : [];
      return Array.isArray(parsed) ? (parsed as DecisionPin[]) : [];
    } catch {
      return [];
    }
  }

  async replace(sessionId: string, pins: readonly DecisionPin[]): Promise<void> {
    const serialised = JSON.stringify(pins);
    if (serialised.length > maxPinBytes) return;
    await this.coord.setValue(`pins:${sessionId}`, serialised, pinTtlMs).catch(() => undefined);
  }
}
