import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db, DialectName } from './database.ts';
import * as m20261121T1000 from './migrations/2026-11-21T1000-accounts.ts';
import * as m20261122T1000 from './migrations/2026-11-22T1000-library.ts';
import * as m20261122T1400 from './migrations/2026-11-22T1400-library-speed.ts';
import * as m20261122T1800 from './migrations/2026-11-22T1800-uploads.ts';
import * as m20261122T2000 from './migrations/2026-11-22T2000-administration.ts';
import * as m20261122T2100 from './migrations/2026-11-22T2100-last-login.ts';
import * as m20261122T2200 from './migrations/2026-11-22T2200-statistics.ts';
import * as m20261122T2300 from './migrations/2026-11-22T2300-processing-lease.ts';
import * as m20261127T1000 from './migrations/2026-11-27T1000-login-failures-age.ts';
import * as m20261127T1100 from './migrations/2026-11-27T1100-ended-sessions.ts';
import * as m20261127T1500 from './migrations/2026-11-27T1500-processing-progress.ts';
import * as m20261128T1000 from './migrations/2026-11-28T1000-own-states-generation.ts';
import * as m20261129T1000 from './migrations/2026-11-29T1000-list-counts.ts';
import * as m20261129T1100 from './migrations/2026-11-29T1100-tag-filter-counts.ts';
import * as m20261202T2200 from './migrations/2026-12-02T2200-streaming.ts';
import * as m20261202T2300 from './migrations/2026-12-02T2300-drop-own-states-generation.ts';
import * as m20261203T0700 from './migrations/2026-12-03T0700-subtitles.ts';
import * as m20261203T0710 from './migrations/2026-12-03T0710-streaming-lease.ts';
import * as m20261203T0800 from './migrations/2026-12-03T0800-cue-video-lookup.ts';
import * as m20261203T0810 from './migrations/2026-12-03T0810-list-index-subtitles.ts';
import * as m20261203T0820 from './migrations/2026-12-03T0820-cues-fts-prefix-4.ts';
import * as m20261203T1300 from './migrations/2026-12-03T1300-cue-prefix-terms.ts';

/** A migration that knows the dialect it runs on (ids and a few types differ). */
export interface DialectMigration {
  up(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
  down?(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
}

/** Every migration, by timestamped name. Static imports so the built server needs no file scanning. */
const migrations: Record<string, DialectMigration> = {
  '2026-11-21T1000-accounts': m20261121T1000,
  '2026-11-22T1000-library': m20261122T1000,
  '2026-11-22T1400-library-speed': m20261122T1400,
  '2026-11-22T1800-uploads': m20261122T1800,
  '2026-11-22T2000-administration': m20261122T2000,
  '2026-11-22T2100-last-login': m20261122T2100,
  '2026-11-22T2200-statistics': m20261122T2200,
  '2026-11-22T2300-processing-lease': m20261122T2300,
  '2026-11-27T1000-login-failures-age': m20261127T1000,
  '2026-11-27T1100-ended-sessions': m20261127T1100,
  '2026-11-27T1500-processing-progress': m20261127T1500,
  '2026-11-28T1000-own-states-generation': m20261128T1000,
  '2026-11-29T1000-list-counts': m20261129T1000,
  '2026-11-29T1100-tag-filter-counts': m20261129T1100,
  '2026-12-02T2200-streaming': m20261202T2200,
  '2026-12-02T2300-drop-own-states-generation': m20261202T2300,
  '2026-12-03T0700-subtitles': m20261203T0700,
  '2026-12-03T0710-streaming-lease': m20261203T0710,
  '2026-12-03T0800-cue-video-lookup': m20261203T0800,
  '2026-12-03T0810-list-index-subtitles': m20261203T0810,
  '2026-12-03T0820-cues-fts-prefix-4': m20261203T0820,
  '2026-12-03T1300-cue-prefix-terms': m20261203T1300,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(migrations)) {
      out[name] = {
        up: (db) => m.up(db, this.dialect),
        ...(m.down ? { down: (db: Kysely<unknown>) => m.down!(db, this.dialect) } : {}),
      };
    }
    return out;
  }
}

/** Brings the database to the latest schema; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // PostgreSQL: name the schema of the migration tables. Without it Kysely looks for them in every
  // schema and, finding another schema's (tests run one schema each, in parallel), never creates its own.
  const schema = db.dialect === 'postgres' ? (await sql<{ name: string }>`select current_schema() as name`.execute(db.kysely)).rows[0]?.name : undefined;
  const migrator = new Migrator({ db: db.kysely, provider: new StaticProvider(db.dialect), ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
