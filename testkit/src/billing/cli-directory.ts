import { normalizeEmail, verifiedAnswer, type CliDirectoryEntry, type CliLoginIdentity } from './cli-identity.js';

/** The developers billing can vouch for, by email; changed by a test between browser steps. */
export class CliDirectory {
  readonly #entries = new Map<string, CliDirectoryEntry>();

  constructor(entries: Readonly<Record<string, CliDirectoryEntry>> = {}) {
    for (const [email, entry] of Object.entries(entries)) this.set(email, entry);
  }

  set(email: string, entry: CliDirectoryEntry): void {
    // Checked now, with any valid lifetime, so a bad entry fails the test's setup rather than the browser step.
    verifiedAnswer({ ...entry, email }, 1);
    this.#entries.set(normalizeEmail(email), { ...entry, teams: [...entry.teams] });
  }

  remove(email: string): boolean {
    return this.#entries.delete(normalizeEmail(email));
  }

  lookup(email: string): CliLoginIdentity | undefined {
    const normalized = normalizeEmail(email);
    const entry = this.#entries.get(normalized);
    return entry === undefined ? undefined : { ...entry, email: normalized };
  }
}
