export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Per deployment, on billing's own clock: GET /v1/entitlement and the support-bundle intake.
 * Only answered calls start a window; a refused one does not push it further out.
 */
export class DeploymentThrottle {
  readonly #lastAnswered = new Map<string, number>();

  constructor(private readonly intervalMs: number) {}

  check(deploymentId: string, nowMs: number): ThrottleVerdict {
    const last = this.#lastAnswered.get(deploymentId);
    if (last === undefined) return { allowed: true };
    const waitMs = last + this.intervalMs - nowMs;
    if (waitMs <= 0) return { allowed: true };
    // Retry-After is whole seconds (RFC 9110 §10.2.3); rounding up so a client that obeys it is never refused again.
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  answered(deploymentId: string, nowMs: number): void {
    this.#lastAnswered.set(deploymentId, nowMs);
  }
}
