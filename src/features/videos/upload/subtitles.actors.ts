import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { components } from '../../../../contract/openapi.gen.ts';
import type { SendSubtitlesInput, SendSubtitlesOutput, SubtitleFailure } from '../../../../machines/upload-queue/upload-file.types.ts';
import { problemOf } from '../../../../machines/shared/problem.ts';
import { api, unwrap } from '../../../lib/api/client.ts';
import { subtitleMessages } from '../../../lib/messages.ts';
import { videoKeys } from '../videos.queries.ts';
import { subtitleContentType } from './subtitle-files.ts';

export type Subtitulo = components['schemas']['Subtitulo'];

/**
 * PUT /api/videos/{id}/subtitulos/{idioma} of a file as its bytes (a Windows-1252 file must reach
 * the server undecoded: it detects and converts it), typed by its extension. Rejects with the problem.
 */
export async function putSubtitleFile(videoId: number, idioma: string, file: File, signal?: AbortSignal): Promise<Subtitulo> {
  const bytes = await file.arrayBuffer();
  const contentType = subtitleContentType(file.name);
  return unwrap(
    await api.PUT('/api/videos/{id}/subtitulos/{idioma}', {
      params: { path: { id: videoId, idioma } },
      // The typed body is the file's text; the bytes go as they are.
      body: '',
      bodySerializer: () => bytes,
      headers: { 'Content-Type': contentType },
      ...(signal ? { signal } : {}),
    }),
  );
}

/** DELETE /api/videos/{id}/subtitulos/{idioma}. */
export async function deleteSubtitleTrack(videoId: number, idioma: string, signal?: AbortSignal): Promise<void> {
  unwrap(await api.DELETE('/api/videos/{id}/subtitulos/{idioma}', { params: { path: { id: videoId, idioma } }, ...(signal ? { signal } : {}) }));
}

/** GET /api/videos/{id}/subtitulos: the video's tracks, one per language. */
export async function listSubtitleTracks(videoId: number, signal?: AbortSignal): Promise<Subtitulo[]> {
  return unwrap(await api.GET('/api/videos/{id}/subtitulos', { params: { path: { id: videoId } }, ...(signal ? { signal } : {}) }));
}

/** A refused file as the machines keep it: its problem's status, type and detail. */
export function subtitleFailureOf(idioma: string, fileName: string, error: unknown): SubtitleFailure {
  const { status = 0, type = 'network-error' } = problemOf(error);
  const detail = typeof error === 'object' && error !== null && typeof (error as { detail?: unknown }).detail === 'string' ? (error as { detail: string }).detail : null;
  return { idioma, fileName, status, type, detail };
}

/**
 * The server's reasons for `invalid-subtitles` (`line <n>: <reason>`, English as every detail), in
 * Spanish; the quoted parts are the file's own text. An unknown reason keeps only the line.
 */
const REASONS: Array<[RegExp, (...parts: string[]) => string]> = [
  [/^not a subtitle file \(WebVTT or SRT\): it holds binary data$/, () => 'no es un archivo de subtítulos (contiene datos binarios)'],
  [/^not a subtitle file \(WebVTT or SRT\): expected «WEBVTT» or a cue timing such as (.+), found (.+)$/, (example, found) => `no es un archivo de subtítulos: se esperaba «WEBVTT» o un tiempo como ${example} y hay ${found}`],
  [/^a block without a cue timing \(such as (.+)\): (.+)$/, (example, found) => `un bloque sin tiempo (como ${example}): ${found}`],
  [/^malformed timing (.+) \(expected such as (.+)\)$/, (found, example) => `tiempo mal escrito ${found} (se esperaba como ${example})`],
  [/^the cue ends before it starts (.+)$/, (found) => `el subtítulo termina antes de empezar ${found}`],
  [/^the cue ends at (\S+), past the end of the video \((\S+)\)$/, (end, length) => `el subtítulo termina en ${end}, después del final del video (${length})`],
  [/^the file has no cues$/, () => 'el archivo no tiene ningún subtítulo'],
];

export function spanishSubtitleDetail(detail: string): string | null {
  const match = /^line (\d+): (.*)$/s.exec(detail);
  if (!match) return null;
  for (const [pattern, say] of REASONS) {
    const parts = pattern.exec(match[2]!);
    if (parts) return `línea ${match[1]}: ${say(...parts.slice(1))}`;
  }
  return `línea ${match[1]}`;
}

/** The Spanish message of a refusal, by the problem's type (openapi.yaml putSubtitles). */
export function subtitleRefusalMessage({ type, detail }: Pick<SubtitleFailure, 'type' | 'detail'>): string {
  switch (type) {
    case 'invalid-subtitles':
    {
      const spanish = detail ? spanishSubtitleDetail(detail) : null;
      return spanish ? subtitleMessages.invalid(spanish) : subtitleMessages.invalidWithoutDetail;
    }
    case 'payload-too-large':
      return subtitleMessages.tooLarge;
    case 'unsupported-media-type':
      return subtitleMessages.unsupported;
    case 'validation-error':
      return subtitleMessages.badLanguage;
    default:
      return subtitleMessages.failed;
  }
}

/** A change of a video's tracks shows in its badge, its filter and its page: the cached videos are read again. */
export function refreshAfterSubtitles(queryClient: QueryClient, videoId: number): void {
  void queryClient.invalidateQueries({ queryKey: videoKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: videoKeys.detail(videoId) });
  // The player's track list (its key starts with the video's, whatever the player names it).
  void queryClient.invalidateQueries({ predicate: (query) => query.queryKey.includes('subtitulos') });
}

/**
 * The wizard's sendSubtitles (R-UPL-9, R-UPL-11): each file in turn; a refused one is reported,
 * never thrown, so the others are still sent.
 */
export function createSendSubtitles(queryClient: QueryClient) {
  return fromPromise<SendSubtitlesOutput, SendSubtitlesInput>(async ({ input }) => {
    const saved: string[] = [];
    const failures: SubtitleFailure[] = [];
    for (const { idioma, file } of input.subtitles) {
      try {
        await putSubtitleFile(input.videoId, idioma, file);
        saved.push(idioma);
      } catch (error) {
        failures.push(subtitleFailureOf(idioma, file.name, error));
      }
    }
    refreshAfterSubtitles(queryClient, input.videoId);
    return { saved, failures };
  });
}
