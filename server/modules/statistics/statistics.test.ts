import { sql, type Kysely } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { call, describeOnEachDatabase, type TestServer } from '../../../tests/utils/server-harness.ts';
import { down, up } from '../../db/migrations/2026-11-22T2200-statistics.ts';
import { addDays, dateIn, startOfDay, type CalendarDate } from '../videos/dates.ts';
import { replaceVideoCues } from '../videos/search-index.service.ts';
import { recordViewEvent } from '../videos/videos.repository.ts';
import { addVideo, createUser, getVideo, patchVideo, type LibraryUser } from '../videos/videos.test-support.ts';
import { seededRandom as random } from '../../seeded-random.ts';
import { readViewCounters, rebuildViewCounters } from './statistics.repository.ts';

type InfoItem = components['schemas']['StatisticsInfoItem'];
type Day = components['schemas']['StatisticsDay'];
type UserRow = { usuario: string; nombre: string; videosVistos: number };
type OrganizationRow = { organizacion: string; videosVistos: number };
type ViewedRow = { id: number; video: string; visualizaciones: number };
type RatedRow = { id: number; video: string; puntuacion: number };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function statistics(server: TestServer, token: string | undefined, query: string) {
  return call(server.app, { method: 'GET', url: `/api/statistics?${query}`, ...(token ? { token } : {}) });
}

async function table<T>(server: TestServer, token: string, name: string, limit = 100, offset = 0): Promise<T[]> {
  const res = await statistics(server, token, `option=infoTable&table=${name}&limit=${limit}&offset=${offset}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T[];
}

/** Every row of a table, read a page of `size` at a time until a short page. */
async function allPages<T>(server: TestServer, token: string, name: string, size: number): Promise<T[]> {
  const rows: T[] = [];
  for (let offset = 0; ; offset += size) {
    const page = await table<T>(server, token, name, size, offset);
    rows.push(...page);
    if (page.length < size) return rows;
  }
}

async function infoBoxes(server: TestServer, token: string): Promise<Record<string, { icon: string; count: number; title: string }>> {
  const res = await statistics(server, token, 'option=infoBox');
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries((res.json() as InfoItem[]).map(({ infoBox }) => [infoBox!.id, { icon: infoBox!.icon, count: infoBox!.count, title: infoBox!.title }]));
}

/**
 * Views recorded through the repository (as the demo does), each at its own instant: `count` views of
 * a video by a user, a second apart, from `from` on.
 */
function viewer(server: () => TestServer) {
  let clock = Date.now() - 2 * DAY;
  return async (user: LibraryUser, videoId: number, count = 1, at?: number) => {
    for (let i = 0; i < count; i++) {
      const instant = new Date(at ?? (clock += 1000)).toISOString();
      expect(await recordViewEvent(server().db.kysely, videoId, user.id, instant, instant)).toBe(true);
    }
  };
}

describeOnEachDatabase('statistics: the four tables, their order and pages', (server) => {
  let admin: LibraryUser;
  const users: Record<string, LibraryUser> = {};
  const videos: Record<string, number> = {};

  beforeAll(async () => {
    const view = viewer(server);
    admin = await createUser(server(), 'admin', { rol: 'admin' });
    // user names compared by their key: 'Bruno' sorts between 'ana' and 'carla'
    for (const [name, organizacion] of [['ana', 'Beta'], ['Bruno', 'Alfa'], ['carla', 'Beta'], ['dario', null], ['eva', 'Gamma']] as const) {
      users[name] = await createUser(server(), name, { organizacion });
    }
    for (const titulo of ['Uno', 'Dos', 'Tres', 'Cuatro', 'Cinco', 'Seis']) videos[titulo] = await addVideo(server(), { titulo });
    videos['En proceso'] = await addVideo(server(), { titulo: 'En proceso', status: 'processing' });

    // Views (11): carla 3, ana 3, Bruno 3, dario 2, eva none. Videos: Uno 3, Dos 2, Tres 2, Cinco 2,
    // Cuatro 1, Seis none, the processing video 1 (never listed).
    const moveTo = (user: LibraryUser, organizacion: string) =>
      server().db.kysely.updateTable('users').set({ organizacion }).where('id', '=', user.id).execute();
    await view(users.carla!, videos.Uno!, 2);
    await view(users.carla!, videos.Dos!);
    await view(users.ana!, videos.Uno!);
    await view(users.ana!, videos.Tres!);
    await view(users.Bruno!, videos.Dos!);
    await view(users.Bruno!, videos.Tres!);
    await view(users.dario!, videos.Cuatro!);
    await view(users.dario!, videos['En proceso']!);
    // through the API, as the player opens a video
    expect((await getVideo(server(), users.Bruno!.session, videos.Cinco!)).statusCode).toBe(200);
    // a view counts for the viewer's organisation at the time: ana's last one for Delta, her others for Beta;
    // dario's stay without organisation
    await moveTo(users.ana!, 'Delta');
    expect((await getVideo(server(), users.ana!.session, videos.Cinco!)).statusCode).toBe(200);
    await moveTo(users.dario!, 'Alfa');
    // Ratings through the API: Seis 5 (1); Uno 4,5 = 4.5 (2); Tres 5,4,4 = 4.33 (3); Dos 4 (1); Cuatro 2,3 (2); Cinco 3,2 (2).
    const rate = async (user: string, titulo: string, value: number) => {
      const res = await patchVideo(server(), users[user]!.session, videos[titulo]!, [{ path: '/puntuacion', value }]);
      expect(res.statusCode, res.body).toBe(200);
    };
    await rate('ana', 'Seis', 5);
    await rate('ana', 'Tres', 5);
    await rate('Bruno', 'Tres', 4);
    await rate('carla', 'Tres', 4);
    await rate('ana', 'Uno', 4);
    await rate('Bruno', 'Uno', 5);
    await rate('carla', 'Dos', 4);
    await rate('ana', 'Cuatro', 2);
    await rate('Bruno', 'Cuatro', 3);
    await rate('carla', 'Cinco', 3);
    await rate('dario', 'Cinco', 2);
  });

  it("'Usuarios más activos': users by views, ties by user name ignoring case; users without views are not listed", async () => {
    expect(await table<UserRow>(server(), admin.session, 'uma')).toEqual([
      { usuario: 'ana', nombre: 'ana', videosVistos: 3 },
      { usuario: 'Bruno', nombre: 'Bruno', videosVistos: 3 },
      { usuario: 'carla', nombre: 'carla', videosVistos: 3 },
      { usuario: 'dario', nombre: 'dario', videosVistos: 2 },
    ]);
  });

  it("'Organizaciones con más videos visualizados': by the viewers' organisation at the time of each view, ties by name", async () => {
    // Beta: carla 3 + ana 2 (before she moved to Delta); Alfa: Bruno 3 (not dario's, from before he joined); Delta: ana 1
    expect(await table<OrganizationRow>(server(), admin.session, 'oma')).toEqual([
      { organizacion: 'Beta', videosVistos: 5 },
      { organizacion: 'Alfa', videosVistos: 3 },
      { organizacion: 'Delta', videosVistos: 1 },
    ]);
  });

  it("'Videos más visualizados': ready videos by views, ties by id; videos without views and unready ones are not listed", async () => {
    // Dos, Tres and Cinco were added in that order (ascending ids)
    expect(await table<ViewedRow>(server(), admin.session, 'vmv')).toEqual([
      { id: videos.Uno, video: 'Uno', visualizaciones: 3 },
      { id: videos.Dos, video: 'Dos', visualizaciones: 2 },
      { id: videos.Tres, video: 'Tres', visualizaciones: 2 },
      { id: videos.Cinco, video: 'Cinco', visualizaciones: 2 },
      { id: videos.Cuatro, video: 'Cuatro', visualizaciones: 1 },
    ]);
  });

  it("'Videos mejor valorados': by average rating (two decimals), then number of ratings, then id", async () => {
    expect(await table<RatedRow>(server(), admin.session, 'vmr')).toEqual([
      { id: videos.Seis, video: 'Seis', puntuacion: 5 },
      // compared as fractions, not whole stars: 4.5 before 4.33 (which has more ratings)
      { id: videos.Uno, video: 'Uno', puntuacion: 4.5 },
      { id: videos.Tres, video: 'Tres', puntuacion: 4.33 },
      { id: videos.Dos, video: 'Dos', puntuacion: 4 },
      // 2.5 each, two ratings each: by id
      { id: videos.Cuatro, video: 'Cuatro', puntuacion: 2.5 },
      { id: videos.Cinco, video: 'Cinco', puntuacion: 2.5 },
    ]);
  });

  it('the views of each table add up to the total views (a view counts once for its user, organisation and video)', async () => {
    const boxes = await infoBoxes(server(), admin.session);
    const sum = <T>(rows: T[], of: (row: T) => number) => rows.reduce((total, row) => total + of(row), 0);
    expect(boxes.views!.count).toBe(11);
    expect(sum(await table<UserRow>(server(), admin.session, 'uma'), (r) => r.videosVistos)).toBe(11);
    // but dario's 2, from before he had an organisation
    expect(sum(await table<OrganizationRow>(server(), admin.session, 'oma'), (r) => r.videosVistos)).toBe(11 - 2);
    // but the processing video's, not listed until it is ready
    expect(sum(await table<ViewedRow>(server(), admin.session, 'vmv'), (r) => r.visualizaciones)).toBe(11 - 1);
  });

  it('pages follow one another: no row twice, none skipped, whatever the page size', async () => {
    for (const name of ['uma', 'oma', 'vmv', 'vmr']) {
      const whole = await table<unknown>(server(), admin.session, name);
      for (const size of [1, 2, 4]) expect(await allPages(server(), admin.session, name, size), `${name} by ${size}`).toEqual(whole);
      expect(await table(server(), admin.session, name, 2, 1)).toEqual(whole.slice(1, 3));
      expect(await table(server(), admin.session, name, 5, 1_000_000)).toEqual([]);
    }
  });

  it('without limit and offset: the first 5 rows', async () => {
    const res = await statistics(server(), admin.session, 'option=infoTable&table=vmr');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual((await table(server(), admin.session, 'vmr')).slice(0, 5));
  });

  it('refuses a limit outside 1–100, a negative or huge offset, and a table page without its table: 400 validation-error', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=diez', 'offset=-1', 'offset=1000001', 'limit=5&offset=1.5']) {
      const res = await statistics(server(), admin.session, `option=infoTable&table=uma&${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ type: 'validation-error', status: 400 });
    }
    const missing = await statistics(server(), admin.session, 'option=infoTable&limit=5');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ type: 'validation-error', detail: expect.stringContaining('query.table') });
    for (const query of ['option=infoTable&table=xyz', 'option=everything', '']) {
      const res = await statistics(server(), admin.session, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ type: 'validation-error' });
    }
  });

  it('is for administrators only: a user gets 403 unauthorized-role; without a session, 401', async () => {
    for (const query of ['option=infoBox', 'option=infoTable&table=uma', 'option=viewsPerDay']) {
      const asUser = await statistics(server(), users.ana!.session, query);
      expect(asUser.statusCode, query).toBe(403);
      expect(asUser.json()).toMatchObject({ type: 'unauthorized-role', status: 403 });
      const anonymous = await statistics(server(), undefined, query);
      expect(anonymous.statusCode, query).toBe(401);
      expect(anonymous.headers['content-type']).toContain('application/problem+json');
    }
  });
});

const isoDate = (d: CalendarDate) => `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

describeOnEachDatabase('statistics: the info boxes and the views per day', (server) => {
  let admin: LibraryUser;
  let ana: LibraryUser;
  let bruno: LibraryUser;
  let carla: LibraryUser;
  let video: number;
  let other: number;
  const now = Date.now();
  const zone = 'Europe/Madrid';
  const today = dateIn(zone, now);
  /** the first instants of today and of the first of the 30 days, in Madrid */
  const todayStart = startOfDay(zone, today);
  const firstDayStart = startOfDay(zone, addDays(today, -29));

  beforeAll(async () => {
    admin = await createUser(server(), 'admin', { rol: 'admin', organizacion: 'TAO' });
    ana = await createUser(server(), 'ana', { organizacion: 'TAO' });
    bruno = await createUser(server(), 'bruno', { organizacion: 'Otra' });
    carla = await createUser(server(), 'carla');
  });

  it('with nothing yet: zeros, 30 days of 0 views, in the order and with the titles of the dashboard', async () => {
    const res = await statistics(server(), admin.session, 'option=infoBox');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { infoBox: { id: 'videos', icon: 'videos', count: 0, title: 'Videos' } },
      { infoBox: { id: 'users', icon: 'users', count: 4, title: 'Usuarios' } },
      { infoBox: { id: 'organizations', icon: 'organizations', count: 2, title: 'Organizaciones' } },
      { infoBox: { id: 'views', icon: 'views', count: 0, title: 'Visualizaciones' } },
      { infoBox: { id: 'views-30d', icon: 'views-30d', count: 0, title: 'Visualizaciones (30 días)' } },
      { infoBox: { id: 'rating', icon: 'rating', count: 0, title: 'Puntuación media' } },
      { infoBox: { id: 'subtitulos', icon: 'subtitles', count: 0, share: 0, title: 'Videos con subtítulos' } },
    ]);
    const days = await statistics(server(), admin.session, 'option=viewsPerDay');
    expect(days.statusCode).toBe(200);
    const utcToday = dateIn('UTC', Date.now());
    expect(days.json()).toEqual(Array.from({ length: 30 }, (_, i) => ({ dia: isoDate(addDays(utcToday, i - 29)), visualizaciones: 0 })));
  });

  it('counts ready videos, users, organisations, views (all and the last 30 days) and the average rating', async () => {
    const view = viewer(server);
    video = await addVideo(server(), { titulo: 'Visto' });
    other = await addVideo(server(), { titulo: 'Otro' });
    await addVideo(server(), { titulo: 'Sin procesar', status: 'processing' });
    await view(bruno, other, 1, now - 40 * DAY); // long ago: not in the last 30 days
    await view(bruno, other, 1, firstDayStart + 12 * HOUR); // midday of the first of the 30 days
    await view(ana, video, 1, todayStart - 10 * 60_000); // 23:50 yesterday in Madrid
    await view(ana, video, 1, todayStart + 10 * 60_000); // 00:10 today in Madrid: still yesterday in UTC
    for (const [user, value] of [[ana, 5], [bruno, 2]] as const) {
      expect((await patchVideo(server(), user.session, video, [{ path: '/puntuacion', value }])).statusCode).toBe(200);
    }
    expect((await patchVideo(server(), ana.session, other, [{ path: '/puntuacion', value: 4 }])).statusCode).toBe(200);

    const boxes = await infoBoxes(server(), admin.session);
    expect(boxes.videos!.count).toBe(2);
    expect(boxes.users!.count).toBe(4);
    expect(boxes.organizations!.count).toBe(2);
    expect(boxes.views!.count).toBe(4);
    expect(boxes['views-30d']!.count).toBe(3);
    expect(boxes.rating!.count).toBe(3.67); // (5 + 2 + 4) / 3
  });

  it('answers the last 30 days in the time zone asked for, oldest first, days without views as 0', async () => {
    // the first instant of the first day counts; the minute before it does not
    await viewer(server)(carla, other, 1, firstDayStart - 60_000);
    await viewer(server)(carla, other, 1, firstDayStart);
    const res = await statistics(server(), admin.session, `option=viewsPerDay&tz=${encodeURIComponent(zone)}`);
    expect(res.statusCode, res.body).toBe(200);
    const expected: Day[] = Array.from({ length: 30 }, (_, i) => ({ dia: isoDate(addDays(today, i - 29)), visualizaciones: 0 }));
    expected[0]!.visualizaciones = 2; // bruno at midday, carla at 00:00
    expected[28]!.visualizaciones = 1; // ana at 23:50
    expected[29]!.visualizaciones = 1; // ana at 00:10 today
    expect(res.json()).toEqual(expected);

    // In UTC both of ana's views are on one day: Madrid's midnight is the evening before in UTC.
    const utc = (await statistics(server(), admin.session, 'option=viewsPerDay&tz=UTC')).json() as Day[];
    expect(utc.map((d) => d.dia)).toEqual(Array.from({ length: 30 }, (_, i) => isoDate(addDays(dateIn('UTC', now), i - 29))));
    expect(utc.find((d) => d.dia === isoDate(dateIn('UTC', todayStart + 10 * 60_000)))?.visualizaciones).toBe(2);
  });

  it('refuses an unknown time zone: 400 validation-error', async () => {
    const res = await statistics(server(), admin.session, 'option=viewsPerDay&tz=Europe/Atlantis');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation-error', detail: expect.stringContaining('query.tz') });
  });

  it('a deleted video takes its views out of every table, box and day', async () => {
    const before = await infoBoxes(server(), admin.session);
    expect(before.views!.count).toBe(6);
    const res = await call(server().app, { method: 'DELETE', url: `/api/videos/${video}`, token: admin.session });
    expect(res.statusCode, res.body).toBe(204);
    const after = await infoBoxes(server(), admin.session);
    expect(after.views!.count).toBe(4); // ana's two went with it
    expect(after['views-30d']!.count).toBe(before['views-30d']!.count - 2);
    expect(after.videos!.count).toBe(1);
    expect(after.rating!.count).toBe(4);
    expect(await table<UserRow>(server(), admin.session, 'uma')).toEqual([
      { usuario: 'bruno', nombre: 'bruno', videosVistos: 2 },
      { usuario: 'carla', nombre: 'carla', videosVistos: 2 },
    ]);
    expect(await table<OrganizationRow>(server(), admin.session, 'oma')).toEqual([{ organizacion: 'Otra', videosVistos: 2 }]);
    expect(await table<ViewedRow>(server(), admin.session, 'vmv')).toEqual([{ id: other, video: 'Otro', visualizaciones: 4 }]);
    const days = (await statistics(server(), admin.session, `option=viewsPerDay&tz=${encodeURIComponent(zone)}`)).json() as Day[];
    expect(days.map((d) => d.visualizaciones)).toEqual([2, ...new Array<number>(29).fill(0)]);
    // no counter is left behind: they equal a recount of the view events
    const counters = await readViewCounters(server().db.kysely);
    await rebuildViewCounters(server().db.kysely, server().db.dialect);
    expect(await readViewCounters(server().db.kysely)).toEqual(counters);
  });
});

describeOnEachDatabase('statistics: the captioned videos box (R-STAT-10)', (server) => {
  let admin: LibraryUser;

  const captionBox = async () => {
    const res = await statistics(server(), admin.session, 'option=infoBox');
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as InfoItem[]).find((item) => item.infoBox?.id === 'subtitulos')?.infoBox;
  };
  const setCues = (videoId: number, idioma: string, texts: string[]) =>
    server().db.kysely.transaction().execute((trx) =>
      replaceVideoCues(trx, server().db.dialect, videoId, idioma, texts.map((texto, i) => ({ inicio: i, fin: i + 1, texto }))),
    );

  beforeAll(async () => {
    admin = await createUser(server(), 'admin', { rol: 'admin' });
  });

  it('counts the ready videos with at least one track and their share of all ready videos', async () => {
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await addVideo(server(), { titulo: `Vídeo ${i}` }));
    const processing = await addVideo(server(), { titulo: 'Sin procesar', status: 'processing' });
    expect(await captionBox()).toEqual({ id: 'subtitulos', icon: 'subtitles', count: 0, share: 0, title: 'Videos con subtítulos' });
    await setCues(ids[0]!, 'es', ['Hola.']);
    await setCues(ids[0]!, 'en', ['Hello.']); // two tracks, one video
    await setCues(ids[1]!, 'en', ['Hi.']);
    await setCues(processing, 'es', ['Todavía no se lista.']); // not ready: in neither figure
    expect(await captionBox()).toMatchObject({ count: 2, share: 0.5 });
    await setCues(ids[2]!, 'es', ['Uno más.']);
    expect(await captionBox()).toMatchObject({ count: 3, share: 0.75 });
    await setCues(ids[0]!, 'es', []);
    await setCues(ids[0]!, 'en', []);
    expect(await captionBox()).toMatchObject({ count: 2, share: 0.5 });
    // a third is given to four decimals
    await addVideo(server(), { titulo: 'Vídeo 5' });
    await addVideo(server(), { titulo: 'Vídeo 6' });
    expect(await captionBox()).toMatchObject({ count: 2, share: 0.3333 });
  });
});

describeOnEachDatabase('statistics: the counters kept as views arrive equal a recount of the view events', (server) => {
  it('after a random mix of views (through the API and the repository), new videos and deletions', async () => {
    const next = random(7);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    const admin = await createUser(server(), 'admin', { rol: 'admin' });
    const organisations = ['Alfa', 'Beta', 'Gamma', null];
    const users = [admin];
    for (let i = 0; i < 8; i++) users.push(await createUser(server(), `usuario${i}`, { organizacion: pick(organisations) }));
    let videos: number[] = [];
    for (let i = 0; i < 6; i++) videos.push(await addVideo(server(), { titulo: `Video ${i}` }));
    let clock = Date.now() - 60 * DAY;
    for (let step = 0; step < 300; step++) {
      const dice = next();
      if (dice < 0.03 && videos.length > 1) {
        const id = pick(videos);
        const res = await call(server().app, { method: 'DELETE', url: `/api/videos/${id}`, token: admin.session });
        expect(res.statusCode, res.body).toBe(204);
        videos = videos.filter((v) => v !== id);
      } else if (dice < 0.06) {
        videos.push(await addVideo(server(), { titulo: `Video nuevo ${step}` }));
      } else if (dice < 0.1) {
        // a user changes organisation: views already counted stay with the old one
        const user = pick(users);
        await server().db.kysely.updateTable('users').set({ organizacion: pick(organisations) }).where('id', '=', user.id).execute();
      } else if (dice < 0.4) {
        expect((await getVideo(server(), pick(users).session, pick(videos))).statusCode).toBe(200);
      } else {
        const at = new Date((clock += Math.floor(next() * 6 * HOUR))).toISOString();
        await recordViewEvent(server().db.kysely, pick(videos), pick(users).id, at, at);
      }
    }
    const kept = await readViewCounters(server().db.kysely);
    expect(kept.hours.length).toBeGreaterThan(50);
    await rebuildViewCounters(server().db.kysely, server().db.dialect);
    expect(await readViewCounters(server().db.kysely)).toEqual(kept);
    const events = (await sql<{ n: number }>`select count(*) as n from view_events`.execute(server().db.kysely)).rows[0]!.n;
    expect((await infoBoxes(server(), admin.session)).views!.count).toBe(Number(events));
  });

  it('views and deletions at the same time: every request answers, the counters still match', async () => {
    const admin = await createUser(server(), 'admin2', { rol: 'admin' });
    const users = await Promise.all(['uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis'].map((name, i) => createUser(server(), `c-${name}`, { organizacion: i % 2 ? 'Par' : 'Impar' })));
    const videos = await Promise.all(Array.from({ length: 8 }, (_, i) => addVideo(server(), { titulo: `Concurrente ${i}` })));
    // every user has seen the two videos that go
    for (const user of users) for (const id of videos.slice(0, 2)) expect((await getVideo(server(), user.session, id)).statusCode).toBe(200);
    const answers = await Promise.all([
      ...users.flatMap((user) => videos.slice(2).map((id) => getVideo(server(), user.session, id))),
      ...videos.slice(0, 2).map((id) => call(server().app, { method: 'DELETE', url: `/api/videos/${id}`, token: admin.session })),
    ]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([...new Array<number>(36).fill(200), 204, 204]);
    const kept = await readViewCounters(server().db.kysely);
    await rebuildViewCounters(server().db.kysely, server().db.dialect);
    expect(await readViewCounters(server().db.kysely)).toEqual(kept);
  });

  it('a view recorded while its video is being deleted is not counted, and is no error', async () => {
    const user = await createUser(server(), 'a-destiempo', { organizacion: 'Alfa' });
    const id = await addVideo(server(), { titulo: 'Se va' });
    const db = server().db.kysely;
    let deleted!: () => void;
    let commit!: () => void;
    const deletedNow = new Promise<void>((resolve) => (deleted = resolve));
    const committing = new Promise<void>((resolve) => (commit = resolve));
    const deleting = db.transaction().execute(async (trx) => {
      await trx.deleteFrom('videos').where('id', '=', id).execute();
      deleted();
      await committing;
    });
    await deletedNow;
    // The view arrives while the deletion is not committed yet: it waits for it, then finds the video gone.
    const at = new Date().toISOString();
    const recording = recordViewEvent(db, id, user.id, at, at);
    setTimeout(commit, 100);
    await deleting;
    expect(await recording).toBe(false);
    expect(await db.selectFrom('view_events').select('id').where('video_id', '=', id).execute()).toEqual([]);
  });

  it('a view does not make the video lists forget what they remember (their generations do not move)', async () => {
    const generations = async () =>
      (await sql<{ scope: string; generation: number | string }>`select scope, generation from video_list_generations order by scope`.execute(server().db.kysely)).rows;
    const user = await createUser(server(), 'lectora', { organizacion: 'Alfa' });
    const id = await addVideo(server(), { titulo: 'Sin olvidar' });
    const before = await generations();
    expect((await getVideo(server(), user.session, id)).statusCode).toBe(200);
    expect(await server().db.kysely.selectFrom('videos').select('view_count').where('id', '=', id).executeTakeFirst()).toEqual({ view_count: 1 });
    expect(await generations()).toEqual(before);
  });

  it('the migration fills the counters from the view events already recorded', async () => {
    const { kysely, dialect } = server().db;
    const untyped = kysely as unknown as Kysely<unknown>; // migrations take the database without its table types
    const expected = await readViewCounters(kysely);
    expect(expected.videos.length).toBeGreaterThan(0);
    await down(untyped);
    await up(untyped, dialect);
    expect(await readViewCounters(kysely)).toEqual(expected);
  });
});
