import { join } from 'node:path';
import { loadMigrations, migrate, packageRoot, type Db, type MigrationStatus } from '@gw/platform';

/** `evidence/migrations/`, whether this runs from sources, from `dist/` or bundled (see `packageRoot`). */
export const evidenceMigrationsDirectory = join(packageRoot(import.meta.url, '@gw/evidence'), 'migrations');

/** Apply the evidence service's numbered SQL migrations (advisory-locked, once per database). */
export async function migrateEvidence(db: Db): Promise<MigrationStatus> {
  return migrate(db, 'evidence', await loadMigrations(evidenceMigrationsDirectory));
}
