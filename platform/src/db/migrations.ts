import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from './db.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export interface MigrationStatus {
  service: string;
  /** Highest applied version. */
  applied: number;
  /** Highest version this build ships. */
  expected: number;
  upToDate: boolean;
}

const fileNamePattern = /^(\d{3,})_([a-z0-9_-]+)\.sql$/;

/** Numbered SQL files (`001_keys.sql`, `002_spend.sql`, …) from a service's `migrations/` folder. */
export async function loadMigrations(directory: string): Promise<Migration[]> {
  const names = (await readdir(directory)).filter((name) => name.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const name of names) {
    const match = fileNamePattern.exec(name);
    if (!match) throw new Error(`migration file ${name} must be named NNN_name.sql`);
    migrations.push({ version: Number(match[1]), name: match[2], sql: await readFile(join(directory, name), 'utf8') });
  }
  // Versions are unique and ascending; gaps are allowed so parallel work can reserve number ranges.
  migrations.forEach((migration, index) => {
    const previous = migrations[index - 1];
    if (previous && previous.version >= migration.version)
      throw new Error(`migration version ${migration.version} is not above ${previous.version}`);
  });
  return migrations;
}

// One advisory lock id for all services: boots of any replica serialise their schema changes.
const migrationLockId = 0x67770001;

const ledgerSql = `CREATE TABLE IF NOT EXISTS gw_schema_migrations (
  service text NOT NULL,
  version integer NOT NULL,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (service, version)
)`;

/**
 * Apply pending migrations in one transaction under an advisory lock, so replicas booting together apply each
 * migration exactly once. Returns the status after applying.
 */
export async function migrate(db: Db, service: string, migrations: readonly Migration[]): Promise<MigrationStatus> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLockId]);
    await tx.query(ledgerSql);
    const { rows } = await tx.query<{ version: number }>(
      'SELECT version FROM gw_schema_migrations WHERE service = $1',
      [service],
    );
    const applied = new Set(rows.map((row) => Number(row.version)));
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO gw_schema_migrations (service, version, name) VALUES ($1, $2, $3)', [
        service,
        migration.version,
        migration.name,
      ]);
    }
  });
  return migrationStatus(db, service, migrations.at(-1)?.version ?? 0);
}

/** Applied vs expected, for `/admin/health`. */
export async function migrationStatus(db: Db, service: string, expected: number): Promise<MigrationStatus> {
  const { rows } = await db.query<{ ledger: string | null }>(
    "SELECT to_regclass('gw_schema_migrations')::text AS ledger",
  );
  const applied = rows[0]?.ledger ? await appliedVersion(db, service) : 0;
  return { service, applied, expected, upToDate: applied === expected };
}

async function appliedVersion(db: Db, service: string): Promise<number> {
  const { rows } = await db.query<{ applied: number | null }>(
    'SELECT max(version) AS applied FROM gw_schema_migrations WHERE service = $1',
    [service],
  );
  return Number(rows[0]?.applied ?? 0);
}

/**
 * Split a script into statements so each runs through the parameterised query path inside the transaction.
 * Handles quotes, comments and dollar-quoted bodies; migrations are ours, so this need not parse all of SQL.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let index = 0;
  while (index < sql.length) {
    const rest = sql.slice(index);
    const dollar = /^\$[A-Za-z_]*\$/.exec(rest);
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', index);
      index = end === -1 ? sql.length : end + 1;
      continue;
    }
    if (dollar) {
      const tag = dollar[0];
      const end = sql.indexOf(tag, index + tag.length);
      const stop = end === -1 ? sql.length : end + tag.length;
      current += sql.slice(index, stop);
      index = stop;
      continue;
    }
    const char = sql[index];
    if (char === "'") {
      let end = index + 1;
      while (end < sql.length && !(sql[end] === "'" && sql[end + 1] !== "'")) end += sql[end] === "'" ? 2 : 1;
      current += sql.slice(index, end + 1);
      index = end + 1;
      continue;
    }
    if (char === ';') {
      if (current.trim()) statements.push(current.trim());
      current = '';
    } else {
      current += char;
    }
    index += 1;
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}
