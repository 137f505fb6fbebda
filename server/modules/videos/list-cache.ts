import type { Db } from '../../db/database.ts';
import { listedVideo, type ListedVideo } from './list-answer.ts';
import {
  countVideos,
  type OwnListedState,
  findOwnStates,
  findListedVideos,
  findTagsOfVideos,
  listVideoIds,
  rankedVideoIds,
  type Executor,
  type ListGenerations,
  type VideoListQuery,
  type Viewer,
} from './videos.repository.ts';

/**
 * What the list remembers between requests, per database (docs/DECISIONS.md, Library):
 * - which videos a query's page holds and how many match (for a text query, its first matches
 *   ranked), under a key made of the query, the viewer's visibility scope and the generations of
 *   what the answer depends on;
 * - what lists show of a video to everyone (its row, its tags, its JSON: list-answer.ts), under
 *   the library and ratings generations;
 * - the viewer's own state of a page's videos, under the generation of that viewer's own fields;
 * - answers as sent (UTF-8 JSON), under what they are made of: the videos in their order, those
 *   generations, the caller's own state of each and the hour the signed locations expire.
 * The generations are read from the database at every request (readListGenerations; on SQLite
 * remembered until the next write, server/db/read-cache.ts) and every write bumps them in its own
 * transaction (triggers; refreshSearchIndex), so a remembered answer is never used after a write
 * committed, whichever server or process made it. Memory is bounded.
 */

/** A map that forgets its least recently used entries beyond a total weight. */
export class Lru<K, V> {
  readonly #entries = new Map<K, { value: V; weight: number }>();
  #weight = 0;

  constructor(readonly maxWeight: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get weight(): number {
    return this.#weight;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, weight = 1): void {
    this.delete(key);
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    for (const [oldest, entry] of this.#entries) {
      if (this.#weight <= this.maxWeight || this.#entries.size <= 1) break;
      this.#entries.delete(oldest);
      this.#weight -= entry.weight;
    }
  }

  /** Changes the weight of an entry still held (false: it is not). */
  reweigh(key: K, value: V, weight: number): boolean {
    const entry = this.#entries.get(key);
    if (!entry || entry.value !== value) return false;
    this.set(key, value, weight);
    return true;
  }

  /** Forgets the entry of the key (only when it holds this value, if one is given). */
  delete(key: K, value?: V): void {
    const entry = this.#entries.get(key);
    if (!entry || (value !== undefined && entry.value !== value)) return;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
  }

  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }
}

/** Ids remembered at most (pages and ranked matches; each entry, a count too, also weighs ENTRY_WEIGHT): a few MB. */
const MAX_REMEMBERED_IDS = 500_000;
const ENTRY_WEIGHT = 50;
/** Videos remembered at most (~2–3 KB each with their JSON): the first pages of many lists. */
const MAX_REMEMBERED_VIDEOS = 5_000;
/** Bytes of answers as sent remembered at most (a page of 24 videos is ~25 KB): ~1,300 of them. */
const MAX_REMEMBERED_ANSWER_BYTES = 32 * 2 ** 20;
/** Ids of pages whose own states are remembered at most (each page also weighs ENTRY_WEIGHT): a few MB. */
const MAX_REMEMBERED_OWN_IDS = 200_000;

export interface ListCache {
  /** count, page ids or ranked ids, by `<generations> <scope> <query> <what>` */
  readonly answers: Lru<string, Promise<number | number[]>>;
  /** the library and ratings generations `videos` holds */
  videosGenerations: { library: number; ratings: number };
  readonly videos: Map<number, ListedVideo>;
  /** answers as sent, by media URL key (their signatures) and answerBytesKey */
  readonly sent: WeakMap<Buffer, Lru<string, Buffer>>;
  /** a user's own state of a page's videos, by `<user> <states generation> <ids>` */
  readonly ownStates: Lru<string, Promise<ReadonlyMap<number, OwnListedState>>>;
}

const caches = new WeakMap<Db, ListCache>();

export function listCacheOf(db: Db): ListCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = {
      answers: new Lru(MAX_REMEMBERED_IDS),
      videosGenerations: { library: -1, ratings: -1 },
      videos: new Map(),
      sent: new WeakMap(),
      ownStates: new Lru(MAX_REMEMBERED_OWN_IDS),
    };
    caches.set(db, cache);
  }
  return cache;
}

/**
 * The key of a query's answers: the generations it depends on (ratings only with a score filter,
 * the user's marks only with a favourite or not-seen filter, which then also name the user), who
 * may see what (administrators, or the user's organisation), and the filters as parsed (calendar
 * filters as instants, tag ids sorted).
 */
function answerKey(viewer: Viewer, generations: ListGenerations, query: VideoListQuery): string {
  const own = query.favorited !== undefined || query.notSeen !== undefined;
  return JSON.stringify([
    generations.library,
    query.score ? generations.ratings : null,
    own ? [viewer.userId, generations.user] : null,
    viewer.isAdmin ? true : (viewer.organizacion ?? null),
    query.words,
    query.tagIds ? [...query.tagIds].sort((a, b) => a - b) : null,
    query.favorited ?? null,
    query.notSeen ?? null,
    query.score ? [query.score.op, query.score.value] : null,
    query.uploadedFrom ?? null,
    query.uploadedBefore ?? null,
  ]);
}

/** What a remembered count or list of ids weighs: the entry, and each id. */
const weightOfAnswer = (value: unknown) => ENTRY_WEIGHT + (Array.isArray(value) ? value.length : 0);

/**
 * Remembers in `memory` what `compute` answers under `key` (its promise: concurrent requests of the
 * same key wait for one query), weighing `weightOf` its value once known; a failure is not remembered.
 */
function remembered<T>(memory: Lru<string, Promise<unknown>>, key: string, compute: () => Promise<T>, weightOf: (value: T) => number = weightOfAnswer): Promise<T> {
  const known = memory.get(key);
  if (known) return known as Promise<T>;
  const promise = compute();
  memory.set(key, promise, ENTRY_WEIGHT);
  promise.then(
    (value) => {
      const weight = weightOf(value);
      if (weight !== ENTRY_WEIGHT) memory.reweigh(key, promise, weight);
    },
    () => memory.delete(key, promise),
  );
  return promise;
}

/**
 * Text queries rank this many matches at once (two of the largest pages): ranking costs about the
 * same for a page or for all matches, so the next pages, and the total when there are fewer, come free.
 */
const RANKED_AT_ONCE = 1000;

/**
 * The ids of the requested page and the number of all matches, each remembered. Without a text
 * query: the page (newest first) and the count, not needed when the page itself shows the total
 * (SQLite then skips it; PostgreSQL asks both at once, on two connections, rather than one after
 * the other). With one: the first RANKED_AT_ONCE matches ranked, sliced; the count and pages
 * beyond those only when there are more. The total may still be coming when the ids are known.
 */
export function listPage(db: Db, viewer: Viewer, generations: ListGenerations, query: VideoListQuery): { ids: Promise<number[]>; total: Promise<number> } {
  const cache = listCacheOf(db);
  const key = answerKey(viewer, generations, query);
  const { kysely, dialect } = db;
  const { limit, offset } = query;
  const count = () => remembered(cache.answers, `${key} count`, () => countVideos(kysely, dialect, viewer, query));
  if (query.words.length > 0) {
    const ranked = remembered(cache.answers, `${key} ranked`, () => rankedVideoIds(kysely, dialect, viewer, query, RANKED_AT_ONCE, 0));
    const all = (r: number[]) => r.length < RANKED_AT_ONCE;
    return {
      ids: ranked.then((r) =>
        all(r) || offset + limit <= r.length
          ? r.slice(offset, offset + limit)
          : remembered(cache.answers, `${key} page ${limit} ${offset}`, () => rankedVideoIds(kysely, dialect, viewer, query, limit, offset)),
      ),
      total: awaitedLater(ranked.then((r) => (all(r) ? r.length : count()))),
    };
  }
  const ids = remembered(cache.answers, `${key} page ${limit} ${offset}`, () => listVideoIds(kysely, viewer, query));
  const early = dialect === 'postgres' ? count() : undefined;
  const total = ids.then((page) => (page.length < limit && (page.length > 0 || offset === 0) ? offset + page.length : (early ?? count())));
  return { ids, total: awaitedLater(total) };
}

/** A promise the caller awaits only after another one: its failure is not an unhandled rejection meanwhile. */
function awaitedLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * What lists show of these videos to everyone, remembered under the library and ratings
 * generations (read before, so what is remembered is never older than the generations it is filed
 * under). A request that read other generations than the remembered ones forgets those when its own
 * are newer, else reads the database. Missing from the answer: deleted since.
 */
export async function listedVideos(db: Db, generations: ListGenerations, ids: readonly number[]): Promise<Map<number, ListedVideo>> {
  const cache = listCacheOf(db);
  const held = cache.videosGenerations;
  if (generations.library >= held.library && generations.ratings >= held.ratings && (generations.library > held.library || generations.ratings > held.ratings)) {
    cache.videos.clear();
    cache.videosGenerations = { library: generations.library, ratings: generations.ratings };
  }
  const current = () => generations.library === cache.videosGenerations.library && generations.ratings === cache.videosGenerations.ratings;
  const found = new Map<number, ListedVideo>();
  const missing: number[] = [];
  for (const id of ids) {
    const video = current() ? cache.videos.get(id) : undefined;
    if (video) found.set(id, video);
    else missing.push(id);
  }
  if (missing.length === 0) return found;
  const read = await readListed(db.kysely, missing);
  const remember = current();
  for (const video of read) {
    found.set(video.row.id, video);
    if (remember) {
      if (cache.videos.size >= MAX_REMEMBERED_VIDEOS) cache.videos.delete(cache.videos.keys().next().value!);
      cache.videos.set(video.row.id, video);
    }
  }
  return found;
}

async function readListed(db: Executor, ids: number[]): Promise<ListedVideo[]> {
  const [rows, tags] = await Promise.all([findListedVideos(db, ids), findTagsOfVideos(db, ids)]);
  return rows.map((row) => listedVideo(row, tags.get(row.id) ?? []));
}

/**
 * The user's own state (rating, favourite, seen mark, position) of each of these videos that has
 * one, remembered under the generation of that user's own fields (read before: what is remembered
 * is never older than its key); concurrent identical misses share one query, a failure is not kept.
 */
export function ownStatesOf(db: Db, userId: number, generations: ListGenerations, ids: readonly number[]): Promise<ReadonlyMap<number, OwnListedState>> {
  if (ids.length === 0) return Promise.resolve(new Map());
  return remembered(
    listCacheOf(db).ownStates,
    `${userId} ${generations.states} ${ids.join(' ')}`,
    async (): Promise<ReadonlyMap<number, OwnListedState>> => new Map((await findOwnStates(db.kysely, userId, ids)).map((s) => [s.video_id, s])),
    () => ENTRY_WEIGHT + ids.length,
  );
}

/** The answers as sent remembered for lists whose media locations are signed with `urlKey`. */
export function sentAnswersOf(db: Db, urlKey: Buffer): Lru<string, Buffer> {
  const { sent } = listCacheOf(db);
  let answers = sent.get(urlKey);
  if (!answers) sent.set(urlKey, (answers = new Lru(MAX_REMEMBERED_ANSWER_BYTES)));
  return answers;
}

/**
 * The key of a list's answer as sent, made of all it is made of: the videos in their order, what
 * lists show of them to everyone (the library and ratings generations), the caller's own state of
 * each (ownStatesOf) and the expiry of the signed media locations (one per clock hour). Which
 * query, caller or total led to those videos does not change those bytes.
 */
export function answerBytesKey(generations: ListGenerations, expires: number, ids: readonly number[], own: ReadonlyMap<number, OwnListedState>): string {
  let key = `${generations.library} ${generations.ratings} ${expires}`;
  for (const id of ids) {
    const state = own.get(id);
    key += state ? ` ${id}:${state.puntuacion}:${state.favorito}:${state.visto}:${state.posicion}` : ` ${id}`;
  }
  return key;
}
