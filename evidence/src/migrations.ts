import { fileURLToPath } from 'node:url';
import { loadMigrations, migrate, type Db, type MigrationStatus } from '@gw/platform';

/** `evidence/migrations/`, from `src/` when run from sources and from `dist/` when built. */
export const evidenceMigrationsDirectory = fileURLToPath(new URL('../migrations/', import.meta.url));

/** Apply the evidence service's numbered SQL migrations (advisory-locked, once per database). */
export async function migrateEvidence(db: Db): Promise<MigrationStatus> {
  return migrate(db, 'evidence', await loadMigrations(evidenceMigrationsDirectory));
}
