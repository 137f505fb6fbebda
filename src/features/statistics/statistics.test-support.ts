/**
 * The fake statistics API of the dashboard's tests: GET /api/statistics (typed against openapi.yaml
 * by openapi-msw) over in-memory tables, info boxes and days. Every request is recorded; a part
 * ('infoBox', 'viewsPerDay', 'uma' …) can be made to fail with a status, and its answers can be held
 * until the test lets them go (to look at the page while a read or an export is under way).
 */
import { onTestFinished, vi } from 'vitest';
import type { components } from '../../../contract/openapi.gen.ts';
import { http, problem, server } from '../../../tests/utils/msw.ts';
import type { StatisticsTableId } from './statistics-search.ts';
import type { StatisticsTableRows } from './statistics-tables.ts';

type InfoItem = components['schemas']['StatisticsInfoItem'];
type Day = components['schemas']['StatisticsDay'];
export type StatisticsPart = StatisticsTableId | 'infoBox' | 'viewsPerDay';

export const INFO_BOXES: InfoItem[] = [
  { infoBox: { id: 'videos', icon: 'videos', count: 120, title: 'Videos' } },
  { infoBox: { id: 'users', icon: 'users', count: 12345, title: 'Usuarios' } },
  { infoBox: { id: 'organizations', icon: 'organizations', count: 7, title: 'Organizaciones' } },
  { infoBox: { id: 'views', icon: 'views', count: 1234567, title: 'Visualizaciones' } },
  { infoBox: { id: 'views-30d', icon: 'views-30d', count: 4321, title: 'Visualizaciones (30 días)' } },
  { infoBox: { id: 'rating', icon: 'rating', count: 4.25, title: 'Puntuación media' } },
  { infoBox: { id: 'subtitulos', icon: 'subtitulos', count: 72, share: 0.6, title: 'Videos con subtítulos' } },
];

/** The 30 days up to 2026-11-22, oldest first: day n (0-based) has n × 10 views. */
export const DAYS: Day[] = Array.from({ length: 30 }, (_, index) => ({
  dia: new Date(Date.UTC(2026, 9, 24 + index)).toISOString().slice(0, 10),
  visualizaciones: index * 10,
}));

/** `count` rows of each table, best first. */
export function tableOf<T extends StatisticsTableId>(table: T, count: number): StatisticsTableRows[T] {
  const rows = Array.from({ length: count }, (_, index) => {
    switch (table) {
      case 'uma':
        return { usuario: `user${index + 1}`, nombre: `Persona ${index + 1}`, videosVistos: 20000 - index };
      case 'oma':
        return { organizacion: `Organización ${index + 1}`, videosVistos: 500 - index };
      case 'vmv':
        return { id: index + 1, video: `Video ${index + 1}`, visualizaciones: 9000 - index };
      default:
        return { id: index + 1, video: `Video ${index + 1}`, puntuacion: 5 - index / 100 };
    }
  });
  return rows as StatisticsTableRows[T];
}

export interface FakeStatistics {
  /** Every request's query, oldest first. */
  readonly requests: URLSearchParams[];
  /** The requests of one part (a table's pages, the info boxes, the days). */
  requestsOf(part: StatisticsPart): URLSearchParams[];
  /** Replaces a table's rows. */
  setRows<T extends StatisticsTableId>(table: T, rows: StatisticsTableRows[T]): void;
  /** The part answers `status` (a problem) from now on, or again normally with `null`; `when` narrows it to some requests. */
  fail(part: StatisticsPart, status: number | null, when?: (query: URLSearchParams) => boolean): void;
  /** The part's answers wait until the returned function is called. */
  hold(part: StatisticsPart): () => void;
}

export function serveStatistics({
  rows = {},
  days = DAYS,
}: { rows?: Partial<{ [T in StatisticsTableId]: StatisticsTableRows[T] }>; days?: Day[] } = {}): FakeStatistics {
  const requests: URLSearchParams[] = [];
  const tables: { [T in StatisticsTableId]: StatisticsTableRows[T] } = {
    uma: rows.uma ?? tableOf('uma', 12),
    oma: rows.oma ?? tableOf('oma', 3),
    vmv: rows.vmv ?? tableOf('vmv', 7),
    vmr: rows.vmr ?? tableOf('vmr', 5),
  };
  const failures = new Map<StatisticsPart, { status: number; when: (query: URLSearchParams) => boolean }>();
  const held = new Map<StatisticsPart, Promise<void>>();
  const partOf = (query: URLSearchParams) => (query.get('option') === 'infoTable' ? query.get('table') : query.get('option')) as StatisticsPart;

  server.use(
    http.get('/api/statistics', async ({ request, response }) => {
      const query = new URL(request.url).searchParams;
      requests.push(query);
      const part = partOf(query);
      await held.get(part);
      const failure = failures.get(part);
      if (failure && failure.when(query)) {
        return problem(failure.status, failure.status < 500 ? 'validation-error' : 'internal-server-error');
      }
      if (part === 'infoBox') return response(200).json(INFO_BOXES);
      if (part === 'viewsPerDay') return response(200).json(days);
      const limit = Number(query.get('limit') ?? 5);
      const offset = Number(query.get('offset') ?? 0);
      return response(200).json(tables[part].slice(offset, offset + limit));
    }),
  );

  return {
    requests,
    requestsOf: (part) => requests.filter((query) => partOf(query) === part),
    setRows: (table, next) => {
      tables[table] = next;
    },
    fail: (part, status, when = () => true) => {
      if (status === null) failures.delete(part);
      else failures.set(part, { status, when });
    },
    hold: (part) => {
      let release = () => {};
      held.set(part, new Promise<void>((resolve) => (release = resolve)));
      return () => {
        held.delete(part);
        release();
      };
    },
  };
}

/** A file the page saved: the link's file name and the Blob behind its object URL. */
export interface CapturedDownload {
  name: string;
  blob: Blob;
}

/**
 * Catches the browser's side of `downloadFile` (src/lib/download.ts) for one test: object URLs
 * (jsdom has none) map to their Blobs, and a click on a download link records the file instead of
 * navigating. The helper itself runs as in the browser.
 */
export function captureDownloads(): CapturedDownload[] {
  const downloads: CapturedDownload[] = [];
  const blobs = new Map<string, Blob>();
  let sequence = 0;
  const urlStatics = URL as unknown as { createObjectURL?: (blob: Blob) => string; revokeObjectURL?: (url: string) => void };
  const original = { create: urlStatics.createObjectURL, revoke: urlStatics.revokeObjectURL };
  urlStatics.createObjectURL = (blob: Blob) => {
    sequence += 1;
    const url = `blob:test/${sequence}`;
    blobs.set(url, blob);
    return url;
  };
  urlStatics.revokeObjectURL = (url: string) => void blobs.delete(url);
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (this.download && blob) downloads.push({ name: this.download, blob });
  });
  onTestFinished(() => {
    click.mockRestore();
    urlStatics.createObjectURL = original.create;
    urlStatics.revokeObjectURL = original.revoke;
  });
  return downloads;
}

/** A downloaded file's text, byte-order mark included (TextDecoder would drop it otherwise). */
export async function textOf(blob: Blob): Promise<string> {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blob.arrayBuffer());
}
