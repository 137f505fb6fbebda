import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { bulkLoadingCues, insertCuesInBulk, refreshSearchIndex, type CueColumns } from '../videos/search-index.service.ts';
import { seededRandom } from '../../seeded-random.ts';
import { rebuildViewCounters } from './statistics.repository.ts';

/**
 * `npm run cli -- generate`: fills a database quickly with bulk inserts (statistics, benchmarks,
 * the end-to-end test of the dashboard): ready, visible videos (rows only, no media files), users
 * without a password, and views (and ratings) spread unevenly over all ready videos and all users,
 * then the view counters recomputed once. The same seed on the same database gives the same data.
 */

// ── deterministic text ──────────────────────────────────────────────────────────────────────────

/** Words of titles and descriptions of an organisation's videos; earlier ones are drawn more often. */
export const SPANISH_WORDS = ('de la el en los para con una por las del sobre equipo proyecto nuevo empresa trabajo cliente ' +
  'presentación formación seguridad informe resumen calidad guía práctica taller jornada evento campaña ventas ' +
  'dirección comité tecnología innovación energía diseño logística almacén entrevista sostenibilidad proceso ' +
  'reunión anual mensual semanal objetivo resultado plan estrategia mercado producto servicio atención ' +
  'procedimiento normativa auditoría riesgo prevención incendio evacuación primeros auxilios ergonomía oficina ' +
  'teletrabajo herramienta aplicación plataforma datos análisis indicador cuadro mando presupuesto factura ' +
  'compras proveedor contrato licitación obra mantenimiento instalación eléctrica climatización vehículo camión ' +
  'flota ruta reparto pedido cadena suministro inventario etiqueta embalaje transporte aduana exportación ' +
  'bienvenida acogida onboarding mentor carrera talento liderazgo comunicación feedback conflicto negociación ' +
  'cultura valores ética igualdad diversidad inclusión voluntariado aniversario premio reconocimiento ' +
  'congreso feria webinar podcast tutorial demostración lanzamiento novedad actualización versión migración').split(' ');

/** Sentences of n Spanish words drawn from `next` (a skewed, Zipf-like draw: common words repeat, as in real titles). */
export function spanishSentences(next: () => number): (words: number) => string {
  const word = () => SPANISH_WORDS[Math.floor(SPANISH_WORDS.length * next() ** 2)]!;
  return (words) => Array.from({ length: words }, word).join(' ');
}

// ── what is said (subtitle cues) ────────────────────────────────────────────────────────────────

/** The most frequent words of spoken Spanish, most frequent first (the head of a frequency list). */
const SPOKEN_HEAD = ('de que no a la el es y en lo un por qué me una te los se con para mi está si bien pero yo eso las sí su ' +
  'tu aquí del al como le más esto ya todo esta vamos muy hay ahora algo estoy tengo nos tú nada cuando ha este sé estás así ' +
  'puedo cómo quiero sólo soy tiene gracias o él bueno fue ser hacer son todos era muy tenemos creo entonces dónde mejor ' +
  'vez hoy donde poco también nunca decir años tiempo otra día cosas mucho hace parte gente casa mismo luego porque después ' +
  'antes siempre sin sobre entre hasta desde trabajo personas momento manera forma mundo primero además claro menos nuevo ' +
  'durante cada grupo caso problema punto lugar ejemplo semana mes año pregunta idea equipo empresa proyecto').split(' ');

/** English for the second track of some videos (a small vocabulary is enough: every language is searched alike). */
const SPOKEN_ENGLISH = ('the of and to a in is that it you for on was with as we this be at have are not but by they from or ' +
  'so what all about can there one will our if more when your do up out time people work team project meeting report budget ' +
  'plan customer safety training quality warehouse delivery market product service strategy result goal question answer ' +
  'today week month year next first last new good great thank everyone welcome presentation data analysis process').split(' ');

const SYLLABLES = 'ca co cu da de di do fa fe fi ga go la le li lo lu ma me mi mo na ne ni no pa pe pi po ra re ri ro sa se si so ta te ti to va ve vi za ce ci bra tra pla gra pre tri'.split(' ');
const ENDINGS = ['ción', 'miento', 'dad', 'ría', 'ero', 'ista', 'ante', 'ente', 'oso', 'ible', 'ar', 'er', 'ir', 'ado', 'ido', 'ía', 'o', 'a', 'es', 'os'];

/**
 * The words cues are made of, most frequent first: spoken Spanish's commonest words, the library's
 * own words, then made-up Spanish-looking words (seeded syllables and endings, accents included) up
 * to `size`, so that a long transcript library has the long tail of a real one.
 */
export function spokenVocabulary(seed: number, size = 12_000): string[] {
  const next = seededRandom(seed);
  const words = [...new Set([...SPOKEN_HEAD, ...SPANISH_WORDS])];
  const known = new Set(words);
  while (words.length < size) {
    const length = 1 + Math.floor(next() * 3);
    let word = '';
    for (let i = 0; i < length; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)]!;
    word += ENDINGS[Math.floor(next() * ENDINGS.length)]!;
    if (!known.has(word)) {
      known.add(word);
      words.push(word);
    }
  }
  return words;
}

/**
 * Sentences of a vocabulary drawn by Zipf's law (the word of rank r with weight 1 / (r + 2.7), as in
 * real speech: a few words make most of the text, most words are rare), 4 to 14 words, capitalised,
 * ending in a full stop or a question mark, sometimes with a comma.
 */
export function spokenSentences(next: () => number, vocabulary: readonly string[]): () => string {
  const cumulative = new Float64Array(vocabulary.length);
  let total = 0;
  for (let r = 0; r < vocabulary.length; r++) cumulative[r] = total += 1 / (r + 1 + 2.7);
  const word = () => {
    const u = next() * total;
    let lo = 0;
    let hi = vocabulary.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo]!;
  };
  return () => {
    const n = 4 + Math.floor(next() * 11);
    const comma = n > 7 && next() < 0.4 ? 2 + Math.floor(next() * (n - 4)) : -1;
    let text = '';
    for (let i = 0; i < n; i++) {
      const w = word();
      text += i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : ` ${w}`;
      if (i === comma) text += ',';
    }
    return text + (next() < 0.12 ? '?' : '.');
  };
}

/** From this many new cues on, the cue indexes are built once after the load (bulkLoadingCues). */
const BULK_CUES = 100_000;
/** Of the videos given cues, one in this many also gets an English track. */
const ENGLISH_EVERY = 20;
const hasEnglish = (index: number) => index % ENGLISH_EVERY === ENGLISH_EVERY - 1;
/** A cue is 2–6 s long; gaps of up to half a second between them. */
const CUE_SPAN = { min: 2, extra: 4, gap: 0.5 } as const;

/**
 * `cues` cues per video in Spanish (and as many in English for one video in ENGLISH_EVERY), added in
 * bulk a few hundred videos at a time (the texts of all 6 million at once would not fit in memory
 * comfortably). On SQLite, when the new cues are most of the index, cues_fts is rebuilt once after
 * the load instead of being fed by the trigger row by row (ADR 0119). Answers the cues added.
 */
async function insertCues(
  trx: Executor,
  db: Db,
  videoIds: readonly number[],
  cues: number,
  seed: number,
  progress: (line: string) => void,
): Promise<number> {
  if (cues === 0 || videoIds.length === 0) return 0;
  const next = seededRandom(seed ^ 0x5eed_c0de);
  const spanish = spokenSentences(next, spokenVocabulary(seed));
  const english = spokenSentences(next, SPOKEN_ENGLISH);
  const expected = videoIds.reduce((sum, _, i) => sum + (hasEnglish(i) ? 2 : 1) * cues, 0);
  const bulk = expected >= BULK_CUES;
  const started = Date.now();
  let done = 0;
  let lastReport = started;
  const batch = Math.max(1, Math.floor(200_000 / cues));
  const load = async () => {
    for (let from = 0; from < videoIds.length; from += batch) {
      const columns: CueColumns = { videoIds: [], idiomas: [], inicios: [], fines: [], textos: [] };
      for (let i = from; i < Math.min(videoIds.length, from + batch); i++) {
        for (const [idioma, sentence] of hasEnglish(i) ? ([['es', spanish], ['en', english]] as const) : ([['es', spanish]] as const)) {
          let at = next() * 2;
          for (let k = 0; k < cues; k++) {
            const end = at + CUE_SPAN.min + next() * CUE_SPAN.extra;
            columns.videoIds.push(videoIds[i]!);
            columns.idiomas.push(idioma);
            columns.inicios.push(Math.round(at * 1000) / 1000);
            columns.fines.push(Math.round(end * 1000) / 1000);
            columns.textos.push(sentence());
            at = end + next() * CUE_SPAN.gap;
          }
        }
      }
      await insertCuesInBulk(trx, db.dialect, columns);
      done += columns.videoIds.length;
      if (Date.now() - lastReport > 5000) {
        lastReport = Date.now();
        progress(`${done} of ${expected} cues (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      }
    }
  };
  if (!bulk) {
    await load();
    return done;
  }
  await bulkLoadingCues(trx, db.dialect, async () => {
    await load();
    progress(`${done} cues inserted in ${((Date.now() - started) / 1000).toFixed(1)} s; indexing them`);
  });
  return done;
}

// ── what is generated ───────────────────────────────────────────────────────────────────────────

export const GENERATE_LIMITS = {
  videos: 100_000,
  users: 100_000,
  cues: 10_000,
  views: 10_000_000,
  ratings: 10_000_000,
  days: 3650,
} as const;

export const DEFAULT_GENERATED_DAYS = 90;

export interface GenerateOptions {
  videos: number;
  users: number;
  views: number;
  ratings?: number;
  /** subtitle cues per generated video (default 0): Spanish, and English too for one in 20 (R-STAT-11) */
  cues?: number;
  /** views fall in the last `days` days (default 90) */
  days?: number;
  seed?: number;
  /** the present (tests fix it) */
  now?: number;
  onProgress?: (line: string) => void;
}

export interface GenerateReport {
  dialect: Db['dialect'];
  videosCreated: number;
  usersCreated: number;
  viewsCreated: number;
  /** new ratings (a user who had already rated a video keeps that rating) */
  ratingsCreated: number;
  cuesCreated: number;
  /** what the views and ratings were spread over */
  readyVideos: number;
  users: number;
  days: number;
  seconds: number;
}

/** Organisations of the generated users and videos (a user may have none). */
const ORGANIZATIONS = ['TAO', 'Otra', 'Logística Norte', 'Comercial Sur', 'Servicios Centrales', 'Fábrica Este', 'Innovación'];
const FIRST_NAMES = ['Ana', 'Luis', 'Marta', 'Javier', 'Lucía', 'Carlos', 'Elena', 'Pablo', 'Sara', 'Diego', 'Laura', 'Jorge',
  'Paula', 'Miguel', 'Carmen', 'Raúl', 'Irene', 'Sergio', 'Nuria', 'Alberto', 'Rocío', 'Andrés', 'Pilar', 'Íñigo'];
const SURNAMES = ['García', 'López', 'Martín', 'Sánchez', 'Pérez', 'Gómez', 'Ruiz', 'Díaz', 'Moreno', 'Álvarez', 'Romero',
  'Navarro', 'Torres', 'Domínguez', 'Vázquez', 'Ramos', 'Gil', 'Serrano', 'Molina', 'Blanco', 'Muñoz', 'Ortega'];

const DAY_MS = 86_400_000;
/** The asset ids of generated videos: the prefix and a zero-padded number (ordered as text). */
const ASSET_PREFIX = 'generated_';

/** ASCII letters only, lower case ('Íñigo' → 'inigo'): the part of a user name taken from a name. */
const ascii = (text: string) => text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^a-z]/g, '');

/**
 * A skewed pick among `n` items: index 0 most often (about half the draws fall in the first tenth).
 * Items are shuffled first (see `popularityOrder`), so popularity does not follow ids.
 */
const skewed = (next: () => number, n: number) => Math.floor(n * next() ** 3);

/** A seeded shuffle (Fisher–Yates) of a copy. */
function popularityOrder<T>(items: readonly T[], next: () => number): T[] {
  const order = [...items];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

type Executor = Kysely<Database>;

/** Runs one statement with positional parameters (prepared once per text on SQLite; reused by chunks of one size). */
async function run(trx: Executor, text: string, parameters: unknown[]): Promise<number> {
  const result = await trx.executeQuery(CompiledQuery.raw(text, parameters));
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * Bulk inserts of `columns`, `rows` given column by column: SQLite takes multi-row VALUES (as many
 * rows as its 32,766 parameters allow); PostgreSQL one array per column (`unnest`), any number of rows.
 * Answers the number of rows inserted (fewer when `suffix` skips conflicts).
 */
async function insertColumns(
  trx: Executor,
  dialect: Db['dialect'],
  table: string,
  columns: Array<{ name: string; pgType: string; values: unknown[] }>,
  suffix = '',
): Promise<number> {
  const count = columns[0]?.values.length ?? 0;
  const names = columns.map((c) => c.name).join(', ');
  let inserted = 0;
  if (dialect === 'postgres') {
    const chunk = 50_000;
    const arrays = columns.map((c, i) => `$${i + 1}::${c.pgType}[]`).join(', ');
    const text = `insert into ${table} (${names}) select * from unnest(${arrays}) ${suffix}`;
    for (let from = 0; from < count; from += chunk) {
      inserted += await run(trx, text, columns.map((c) => c.values.slice(from, from + chunk)));
    }
    return inserted;
  }
  const chunk = Math.floor(32_766 / columns.length);
  const row = `(${columns.map(() => '?').join(', ')})`;
  const textFor = (rows: number) => `insert into ${table} (${names}) values ${Array.from({ length: rows }, () => row).join(', ')} ${suffix}`;
  const full = textFor(chunk);
  for (let from = 0; from < count; from += chunk) {
    const rows = Math.min(chunk, count - from);
    const parameters: unknown[] = new Array(rows * columns.length);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns.length; c++) parameters[r * columns.length + c] = columns[c]!.values[from + r];
    }
    inserted += await run(trx, rows === chunk ? full : textFor(rows), parameters);
  }
  return inserted;
}

async function insertUsers(trx: Executor, db: Db, count: number, next: () => number, at: string): Promise<void> {
  if (count === 0) return;
  const taken = new Set((await trx.selectFrom('users').select('username_key').execute()).map((u) => u.username_key));
  const usernames: string[] = [];
  const nombres: string[] = [];
  const organizations: Array<string | null> = [];
  for (let i = 0, n = taken.size + 1; i < count; i++) {
    const first = FIRST_NAMES[Math.floor(next() * FIRST_NAMES.length)]!;
    const last = SURNAMES[Math.floor(next() * SURNAMES.length)]!;
    let username: string;
    do username = `${ascii(first)}.${ascii(last)}${n++}`;
    while (taken.has(username));
    taken.add(username);
    usernames.push(username);
    nombres.push(`${first} ${last}`);
    organizations.push(next() < 0.1 ? null : ORGANIZATIONS[skewed(next, ORGANIZATIONS.length)]!);
  }
  const constant = <T>(value: T) => new Array<T>(count).fill(value);
  await insertColumns(trx, db.dialect, 'users', [
    { name: 'username', pgType: 'varchar', values: usernames },
    { name: 'username_key', pgType: 'varchar', values: usernames },
    { name: 'nombre', pgType: 'varchar', values: nombres },
    { name: 'rol', pgType: 'varchar', values: constant('user') },
    { name: 'organizacion', pgType: 'varchar', values: organizations },
    // no password and no second factor: a generated user cannot sign in
    { name: 'password_hash', pgType: 'varchar', values: constant(null) },
    { name: 'otp_state', pgType: 'varchar', values: constant('OTP_DISABLED') },
    { name: 'created_at', pgType: 'varchar', values: constant(at) },
    { name: 'updated_at', pgType: 'varchar', values: constant(at) },
  ]);
}

/** Inserts the videos (with `cues`, long enough for them and marked with their languages); answers their ids in order. */
async function insertVideos(trx: Executor, db: Db, count: number, next: () => number, now: number, days: number, cues: number): Promise<number[]> {
  if (count === 0) return [];
  const sentence = spanishSentences(next);
  const last = await trx.selectFrom('videos').select((eb) => eb.fn.max('id_externo').as('max')).where('id_externo', 'like', `${ASSET_PREFIX}%`).executeTakeFirst();
  const first = last?.max ? Number(last.max.slice(ASSET_PREFIX.length)) + 1 : 1;
  // uploaded over the two years before the views start: every view is after its video's upload
  const uploadsEnd = now - days * DAY_MS;
  const at = new Date(now).toISOString();
  const columns = {
    id_externo: [] as string[], titulo: [] as string[], descripcion: [] as Array<string | null>, descripcion_corta: [] as string[],
    duracion: [] as number[], organizacion: [] as Array<string | null>, fecha_alta: [] as string[],
  };
  for (let i = 0; i < count; i++) {
    columns.id_externo.push(`${ASSET_PREFIX}${String(first + i).padStart(7, '0')}`);
    const title = sentence(2 + Math.floor(next() * 4));
    columns.titulo.push((title.charAt(0).toUpperCase() + title.slice(1)).slice(0, 100));
    columns.descripcion.push(next() < 0.7 ? sentence(25) : null);
    columns.descripcion_corta.push(sentence(10));
    columns.duracion.push(Math.max(30 + Math.round(next() * 3570), Math.ceil(cues * (CUE_SPAN.min + CUE_SPAN.extra + CUE_SPAN.gap)) + 2));
    columns.organizacion.push(ORGANIZATIONS[skewed(next, ORGANIZATIONS.length)]!);
    columns.fecha_alta.push(new Date(uploadsEnd - Math.floor(next() * 730 * DAY_MS)).toISOString());
  }
  const constant = <T>(value: T) => new Array<T>(count).fill(value);
  await insertColumns(trx, db.dialect, 'videos', [
    { name: 'id_externo', pgType: 'varchar', values: columns.id_externo },
    { name: 'titulo', pgType: 'varchar', values: columns.titulo },
    { name: 'descripcion', pgType: 'varchar', values: columns.descripcion },
    { name: 'descripcion_corta', pgType: 'varchar', values: columns.descripcion_corta },
    { name: 'duracion', pgType: 'double precision', values: columns.duracion },
    { name: 'organizacion', pgType: 'varchar', values: columns.organizacion },
    { name: 'nombre_usuario_alta', pgType: 'varchar', values: constant('Generador de datos') },
    { name: 'is_visible', pgType: 'integer', values: constant(1) },
    { name: 'status', pgType: 'varchar', values: constant('ready') },
    // rows only: no thumbnail, preview nor video file
    { name: 'has_thumbnail', pgType: 'integer', values: constant(0) },
    { name: 'has_preview', pgType: 'integer', values: constant(0) },
    { name: 'fecha_alta', pgType: 'varchar', values: columns.fecha_alta },
    { name: 'updated_at', pgType: 'varchar', values: constant(at) },
    { name: 'subtitle_languages', pgType: 'varchar', values: columns.id_externo.map((_, i) => (cues === 0 ? null : hasEnglish(i) ? 'en,es' : 'es')) },
  ]);
  const created = await trx
    .selectFrom('videos')
    .select('id')
    .where('id_externo', 'like', `${ASSET_PREFIX}%`)
    .where('id_externo', '>=', columns.id_externo[0]!)
    .orderBy('id')
    .execute();
  const ids = created.map((r) => r.id);
  for (let from = 0; from < ids.length; from += 500) await refreshSearchIndex(trx, db.dialect, ids.slice(from, from + 500));
  return ids;
}

/** Views: a skewed video and user each, at a time after the video's upload within the last `days` days; inserted oldest first. */
async function insertViews(
  trx: Executor,
  db: Db,
  count: number,
  videos: Array<{ id: number; uploaded: number }>,
  users: Array<{ id: number; organizacion: string | null }>,
  next: () => number,
  now: number,
  days: number,
): Promise<number> {
  if (count === 0) return 0;
  const popularVideos = popularityOrder(videos, next);
  const popularUsers = popularityOrder(users, next);
  const start = now - days * DAY_MS;
  const videoOf = new Uint32Array(count);
  const userOf = new Uint32Array(count);
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const v = skewed(next, popularVideos.length);
    const from = Math.min(now - 1000, Math.max(start, popularVideos[v]!.uploaded));
    videoOf[i] = v;
    userOf[i] = skewed(next, popularUsers.length);
    times[i] = from + Math.floor(next() * (now - from));
  }
  // oldest first, as views arrive: ids follow time, and the time index is filled in order
  const order = new Uint32Array(count).map((_, i) => i).sort((a, b) => times[a]! - times[b]!);
  const videoIds = new Array<number>(count);
  const userIds = new Array<number>(count);
  const organizations = new Array<string | null>(count);
  const viewedAt = new Array<string>(count);
  for (let k = 0; k < count; k++) {
    const i = order[k]!;
    const user = popularUsers[userOf[i]!]!;
    videoIds[k] = popularVideos[videoOf[i]!]!.id;
    userIds[k] = user.id;
    organizations[k] = user.organizacion;
    viewedAt[k] = new Date(times[i]!).toISOString();
  }
  const insert = () =>
    insertColumns(trx, db.dialect, 'view_events', [
      { name: 'video_id', pgType: 'integer', values: videoIds },
      { name: 'user_id', pgType: 'integer', values: userIds },
      { name: 'organizacion', pgType: 'varchar', values: organizations },
      { name: 'viewed_at', pgType: 'varchar', values: viewedAt },
    ]);
  return count >= BULK_VIEWS ? withoutIndexes(trx, db.dialect, 'view_events', insert) : insert();
}

/** From this many views on, the indexes of view_events are built once after the inserts rather than row by row. */
const BULK_VIEWS = 100_000;

/**
 * Runs `work` with the secondary indexes of `table` dropped, then creates them again exactly as they
 * were (their definitions read from the database, so whatever the migrations made is what comes
 * back): sorting a million rows once is much faster than a million insertions into each index.
 */
async function withoutIndexes<T>(trx: Executor, dialect: Db['dialect'], table: string, work: () => Promise<T>): Promise<T> {
  const indexes =
    dialect === 'postgres'
      ? (await sql<{ name: string; definition: string }>`select i.indexname as name, i.indexdef as definition from pg_indexes i
          where i.schemaname = current_schema() and i.tablename = ${table}
            and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.connamespace = current_schema()::regnamespace)`.execute(trx)).rows
      : (await sql<{ name: string; definition: string }>`select name, sql as definition from sqlite_master
          where type = 'index' and tbl_name = ${table} and sql is not null`.execute(trx)).rows;
  // PostgreSQL: room to sort each index in memory (for this transaction only)
  if (dialect === 'postgres') await sql`set local maintenance_work_mem = '256MB'`.execute(trx);
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  const result = await work();
  for (const index of indexes) await sql.raw(index.definition).execute(trx);
  return result;
}

/**
 * Ratings by distinct users of skewed videos, each video with a quality of its own (some are liked,
 * some are not); a user who already has a state of that video is left as they were. The videos'
 * rating sums and counts are then recomputed from the users' ratings.
 */
async function insertRatings(
  trx: Executor,
  db: Db,
  count: number,
  videos: Array<{ id: number }>,
  users: Array<{ id: number }>,
  next: () => number,
  now: number,
): Promise<number> {
  if (count === 0) return 0;
  const popularVideos = popularityOrder(videos, next);
  const popularUsers = popularityOrder(users, next);
  const quality = new Map(popularVideos.map((v) => [v.id, 1.5 + next() * 3.5]));
  const pairs = new Set<string>();
  const videoIds: number[] = [];
  const userIds: number[] = [];
  const scores: number[] = [];
  const wanted = Math.min(count, videos.length * users.length);
  for (let attempts = 0; videoIds.length < wanted && attempts < wanted * 20; attempts++) {
    // the user uniformly when the skewed draws keep meeting the same pairs
    const video = popularVideos[skewed(next, popularVideos.length)]!;
    const user = popularUsers[attempts < wanted * 4 ? skewed(next, popularUsers.length) : Math.floor(next() * popularUsers.length)]!;
    const key = `${user.id}:${video.id}`;
    if (pairs.has(key)) continue;
    pairs.add(key);
    videoIds.push(video.id);
    userIds.push(user.id);
    scores.push(Math.min(5, Math.max(1, Math.round(quality.get(video.id)! + (next() - 0.5) * 2))));
  }
  const at = new Date(now).toISOString();
  const n = videoIds.length;
  const inserted = await insertColumns(
    trx,
    db.dialect,
    'video_user_states',
    [
      { name: 'user_id', pgType: 'integer', values: userIds },
      { name: 'video_id', pgType: 'integer', values: videoIds },
      { name: 'puntuacion', pgType: 'integer', values: scores },
      { name: 'favorito', pgType: 'integer', values: new Array<number>(n).fill(0) },
      { name: 'visto', pgType: 'integer', values: new Array<number>(n).fill(0) },
      { name: 'updated_at', pgType: 'varchar', values: new Array<string>(n).fill(at) },
    ],
    'on conflict (user_id, video_id) do nothing',
  );
  await sql`update videos set rating_sum = r.total, rating_count = r.n
    from (select video_id, sum(puntuacion) as total, count(puntuacion) as n from video_user_states where puntuacion is not null group by video_id) r
    where videos.id = r.video_id and (videos.rating_sum <> r.total or videos.rating_count <> r.n)`.execute(trx);
  return inserted;
}

/** Generates the data in one transaction (nothing is left half done), then recomputes the view counters. */
export async function generate(db: Db, options: GenerateOptions): Promise<GenerateReport> {
  const started = Date.now();
  const now = options.now ?? started;
  const days = options.days ?? DEFAULT_GENERATED_DAYS;
  const progress = options.onProgress ?? (() => {});
  const next = seededRandom(options.seed ?? 1);
  const at = new Date(now).toISOString();
  const step = (what: string, since: number) => progress(`${what} in ${((Date.now() - since) / 1000).toFixed(1)} s`);

  // SQLite: a page cache big enough for the indexes of view_events, so a million random index inserts
  // do not go back to the file (the default is 2 MB); back to what it was afterwards.
  const cacheSize = db.dialect === 'sqlite' ? (await sql<{ cache_size: number }>`pragma cache_size`.execute(db.kysely)).rows[0]?.cache_size : undefined;
  if (cacheSize !== undefined) await sql`pragma cache_size = -262144`.execute(db.kysely);
  const report = await db.kysely.transaction().execute(async (trx) => {
    let since = Date.now();
    await insertUsers(trx, db, options.users, next, at);
    const videoIds = await insertVideos(trx, db, options.videos, next, now, days, options.cues ?? 0);
    if (options.users + options.videos > 0) step(`${options.videos} videos and ${options.users} users`, since);
    since = Date.now();
    const cuesCreated = await insertCues(trx, db, videoIds, options.cues ?? 0, options.seed ?? 1, progress);
    if (cuesCreated > 0) step(`${cuesCreated} subtitle cues`, since);

    const readyVideos = (await trx.selectFrom('videos').select(['id', 'fecha_alta']).where('status', '=', 'ready').orderBy('id').execute())
      .map((v) => ({ id: v.id, uploaded: Date.parse(v.fecha_alta) }));
    const users = await trx.selectFrom('users').select(['id', 'organizacion']).orderBy('id').execute();
    const wantsViews = options.views > 0 || (options.ratings ?? 0) > 0;
    if (wantsViews && (readyVideos.length === 0 || users.length === 0)) {
      throw new GenerateError('views and ratings need at least one ready video and one user (add some with --videos and --users)');
    }

    since = Date.now();
    const viewsCreated = await insertViews(trx, db, options.views, readyVideos, users, next, now, days);
    if (viewsCreated > 0) step(`${viewsCreated} views`, since);
    since = Date.now();
    const ratingsCreated = await insertRatings(trx, db, options.ratings ?? 0, readyVideos, users, next, now);
    if (ratingsCreated > 0) step(`${ratingsCreated} ratings`, since);
    since = Date.now();
    await rebuildViewCounters(trx, db.dialect);
    step('view counters recomputed', since);
    return {
      dialect: db.dialect,
      videosCreated: options.videos,
      usersCreated: options.users,
      viewsCreated,
      ratingsCreated,
      cuesCreated,
      readyVideos: readyVideos.length,
      users: users.length,
      days,
    };
  }).finally(async () => {
    if (cacheSize !== undefined) await sql`pragma cache_size = ${sql.raw(String(Math.trunc(cacheSize)))}`.execute(db.kysely);
  });
  // the planner's statistics, as the database would gather them by itself later
  await sql`${sql.raw(db.dialect === 'postgres' ? 'analyze' : 'pragma optimize')}`.execute(db.kysely);
  // SQLite: the bulk of new pages moved from the write-ahead log into the database file now, rather
  // than every read looking them up in a large log until a checkpoint gets to them
  if (db.dialect === 'sqlite') await sql`pragma wal_checkpoint(truncate)`.execute(db.kysely);
  return { ...report, seconds: (Date.now() - started) / 1000 };
}

/** A request generate cannot satisfy (e.g. views without any video). */
export class GenerateError extends Error {}

/** What the command prints. */
export function describeGenerated(report: GenerateReport): string {
  const lines = [`Generated in ${report.seconds.toFixed(1)} s (${report.dialect}):`];
  if (report.videosCreated > 0) lines.push(`  ${report.videosCreated} videos: ready and visible, rows only (no media files: they show no picture and do not play)`);
  if (report.cuesCreated > 0) lines.push(`  ${report.cuesCreated} subtitle cues (Spanish, and English for one video in ${ENGLISH_EVERY}), searchable with q`);
  if (report.usersCreated > 0) lines.push(`  ${report.usersCreated} users without a password (they cannot sign in)`);
  lines.push(`  ${report.viewsCreated} views over the last ${report.days} days, ${report.ratingsCreated} ratings,`);
  lines.push(`  spread unevenly over all ${report.readyVideos} ready videos and ${report.users} users; view counters recomputed.`);
  return lines.join('\n');
}
