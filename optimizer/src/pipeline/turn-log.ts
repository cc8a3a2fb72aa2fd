import { BoundedMap } from '../guard/bounded-map.js';

/**
 * When a session's earlier turns were answered, by the watermark pin each turn left: what tells a
 * warm provider prompt cache from an expired one on the next turn. Kept by the service, not in the pins: a clock
 * reading in the response would make two identical requests answer different bytes.
 */
export interface TurnTimes {
  /** When the turn that left this watermark was answered; undefined when this replica did not answer it. */
  answeredAt(watermark: string): number | undefined;
  answered(watermark: string, at: number): void;
}

/** Turns remembered per replica, one entry a turn: well over the five minutes that matter at any realistic rate. */
const defaultCapacity = 100_000;

/**
 * The replica's turn times in a bounded map. An unknown turn (another replica answered it, a restart, evicted) reads
 * as a warm cache, the conservative side: settled history stays as the provider last saw it, so what is lost is a
 * chance to rewrite history after the cache expired, never byte stability.
 */
export class TurnLog {
  private readonly times: BoundedMap<string, number>;

  constructor(capacity = defaultCapacity) {
    this.times = new BoundedMap(capacity);
  }

  /** The view of one conversation (tenant, owner and session): another one's identical watermark is not its turn. */
  forSession(session: string): TurnTimes {
    const key = (watermark: string) => `${session}\u0000${watermark}`;
    return {
      answeredAt: (watermark) => this.times.get(key(watermark)),
      answered: (watermark, at) => this.times.set(key(watermark), at),
    };
  }
}
