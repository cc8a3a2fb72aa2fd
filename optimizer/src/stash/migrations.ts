import { join } from 'node:path';
import { loadMigrations, migrate, packageRoot, type Db, type MigrationStatus } from '@gw/platform';

/** `optimizer/migrations/`, whether this runs from sources, from `dist/` or bundled (see `packageRoot`). */
export const optimizerMigrationsDirectory = join(packageRoot(import.meta.url, '@gw/optimizer'), 'migrations');

export const optimizerServiceName = 'optimizer';

/** Apply the optimizer's numbered SQL migrations (advisory-locked, once per database). */
export async function migrateOptimizer(db: Db): Promise<MigrationStatus> {
  return migrate(db, optimizerServiceName, await loadMigrations(optimizerMigrationsDirectory));
}
