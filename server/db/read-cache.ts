import type { Db } from './database.ts';

/**
 * Reads remembered until the database changes (docs/DECISIONS.md, "Reads remembered until a
 * write"). On SQLite every write, by this server or by another process on the same file (the
 * command line), changes the database's stamp (Db.changeStamp); a read remembered under the stamp
 * of the moment it began is answered again only while the stamp is the same, so it is always what
 * the database would answer. The stamp is taken before the read: a write during the read makes the
 * entry stale at once. Nothing is remembered on PostgreSQL (several servers may share it, and it
 * has no such stamp) nor while a transaction is open. At most `max` entries per cache and database;
 * any write forgets them all.
 */
export class ReadCache<T> {
  readonly #byDb = new WeakMap<Db, { stamp: string; entries: Map<string, { value: T }> }>();

  constructor(readonly max: number) {}

  async read(db: Db, key: string, load: () => Promise<T>): Promise<T> {
    const stamp = db.changeStamp?.();
    if (stamp === undefined) return load();
    let state = this.#byDb.get(db);
    if (state?.stamp === stamp) {
      const hit = state.entries.get(key);
      if (hit) return hit.value;
    } else {
      state = { stamp, entries: new Map() };
      this.#byDb.set(db, state);
    }
    const value = await load();
    if (state.entries.size < this.max) state.entries.set(key, { value });
    return value;
  }
}
