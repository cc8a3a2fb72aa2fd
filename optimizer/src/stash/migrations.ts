import { fileURLToPath } from 'node:url';
import { loadMigrations, migrate, type Db, type MigrationStatus } from '@gw/platform';

/** `optimizer/migrations/`, from `src/stash/` when run from sources and from `dist/stash/` when built. */
export const optimizerMigrationsDirectory = fileURLToPath(new URL('../../migrations/', import.meta.url));

export const optimizerServiceName = 'optimizer';

/** Apply the optimizer's numbered SQL migrations (advisory-locked, once per database). */
export async function migrateOptimizer(db: Db): Promise<MigrationStatus> {
  return migrate(db, optimizerServiceName, await loadMigrations(optimizerMigrationsDirectory));
}
