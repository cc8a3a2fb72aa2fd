import type { Coord } from '@gw/platform';
import type { DecisionPin } from '@gw/contracts';

// Pins are content-free fingerprints and recipes; a day covers any live conversation, then they age out.
const pinTtlMs = 24 * 3_600_000;
const maxPinBytes = 256 * 1024;

/**
 * Decision pins persisted per gateway session: the array the optimizer returns replaces the stored
 * one verbatim. Shared through Coord so every replica replays the same rewrites.
 */
export class SessionPins {
  constructor(private readonly coord: Coord) {}

  /**
   * The session's pins: `[]` when none are stored (sending the array opts the session into pinning), undefined when
   * the store cannot say (a read error sends no pins, and the optimizer then returns none).
   */
  async load(sessionId: string): Promise<DecisionPin[] | undefined> {
    try {
      const stored = await this.coord.getValue(`pins:${sessionId}`);
      const parsed: unknown = stored ? JSON.parse(stored) : [];
      return Array.isArray(parsed) ? (parsed as DecisionPin[]) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * A full replace. A list over the 256 KiB bound (UTF-8 bytes) is not stored, and the previous list goes with it:
   * replaying rewrites the optimizer has just replaced would contradict the turn it answered.
   */
  async replace(sessionId: string, pins: readonly DecisionPin[]): Promise<void> {
    const serialised = JSON.stringify(pins);
    const key = `pins:${sessionId}`;
    const write =
      Buffer.byteLength(serialised) > maxPinBytes
        ? this.coord.delete(key)
        : this.coord.setValue(key, serialised, pinTtlMs);
    await write.catch(() => undefined);
  }
}
