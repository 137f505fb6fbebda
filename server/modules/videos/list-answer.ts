import type { components } from '../../../contract/openapi.gen.ts';
import { mediaExpiry } from '../../media/signed-urls.ts';
import { signedMediaUrl } from './media-urls.ts';
import type { ListedVideoRow, OwnListedState } from './videos.repository.ts';

/**
 * The videos of a list as answered: what is the same for every caller is built (and serialised)
 * once per video and remembered with it (list-cache.ts); at every request only the caller's own
 * fields are added. The JSON is the very text `JSON.stringify` writes for the same objects.
 */

type Video = components['schemas']['Video'];
type Etiqueta = components['schemas']['Etiqueta'];

/** The average rating to two decimals; 0 without ratings. */
export function averageRating(sum: number, count: number): number {
  return count === 0 ? 0 : Math.round((sum / count) * 100) / 100;
}

/** The signed locations of a video for one clock hour, and its JSON from `fechaAlta` to the end. */
interface Tail {
  urlKey: Buffer;
  expires: number;
  video: string;
  thumbnail: string | null;
  preview: string | null;
  json: string;
}

/** A video as lists show it to everyone. */
export interface ListedVideo {
  readonly row: ListedVideoRow;
  readonly etiquetas: Etiqueta[];
  /** its JSON up to `puntuacionMedia`: `{"id":…,"puntuacionMedia":…,` (the caller's own fields come next) */
  readonly head: string;
  tail?: Tail;
}

export function listedVideo(row: ListedVideoRow, etiquetas: Etiqueta[]): ListedVideo {
  const head = JSON.stringify({
    id: row.id,
    idExterno: row.id_externo,
    titulo: row.titulo,
    descripcion: row.descripcion,
    descripcionCorta: row.descripcion_corta,
    duracion: Number(row.duracion),
    puntuacionMedia: averageRating(Number(row.rating_sum), Number(row.rating_count)),
  });
  return { row, etiquetas, head: `${head.slice(0, -1)},` };
}

function tailOf(listed: ListedVideo, urlKey: Buffer, at: number): Tail {
  const expires = mediaExpiry(at);
  if (listed.tail && listed.tail.urlKey === urlKey && listed.tail.expires === expires) return listed.tail;
  const { row } = listed;
  const video = signedMediaUrl(urlKey, row.id_externo, 'video.mp4', at);
  const thumbnail = row.has_thumbnail === 1 ? signedMediaUrl(urlKey, row.id_externo, 'thumbnail.jpg', at, Number(row.thumbnail_version)) : null;
  const preview = row.has_preview === 1 ? signedMediaUrl(urlKey, row.id_externo, 'preview.mp4', at) : null;
  const json = JSON.stringify({
    fechaAlta: row.fecha_alta,
    urlVideo: video,
    urlThumbnail: thumbnail,
    urlPreview: preview,
    etiquetas: listed.etiquetas,
    isVisible: row.is_visible === 1,
    organizacionId: row.organizacion,
    nombreUsuarioAlta: row.nombre_usuario_alta,
  }).slice(1);
  listed.tail = { urlKey, expires, video, thumbnail, preview, json };
  return listed.tail;
}

/** The JSON around the caller's own fields of a video built by listedToVideo. */
const fragments = new WeakMap<Video, { head: string; tail: string }>();

/** A video of a list as the caller sees it: the same fields, in the same order, as toVideo (videos.service.ts). */
export function listedToVideo(listed: ListedVideo, own: OwnListedState | undefined, urlKey: Buffer, at: number): Video {
  const { row } = listed;
  const tail = tailOf(listed, urlKey, at);
  const video: Video = {
    id: row.id,
    idExterno: row.id_externo,
    titulo: row.titulo,
    descripcion: row.descripcion,
    descripcionCorta: row.descripcion_corta,
    duracion: Number(row.duracion),
    puntuacionMedia: averageRating(Number(row.rating_sum), Number(row.rating_count)),
    puntuacion: own?.puntuacion ?? null,
    favorito: own?.favorito === 1,
    visto: own?.visto === 1,
    posicion: own?.posicion === null || own?.posicion === undefined ? null : Number(own.posicion),
    fechaAlta: row.fecha_alta,
    urlVideo: tail.video,
    urlThumbnail: tail.thumbnail,
    urlPreview: tail.preview,
    etiquetas: listed.etiquetas,
    isVisible: row.is_visible === 1,
    organizacionId: row.organizacion,
    nombreUsuarioAlta: row.nombre_usuario_alta,
  };
  fragments.set(video, { head: listed.head, tail: tail.json });
  return video;
}

/**
 * The JSON of a list: `JSON.stringify(videos)`, written from the remembered JSON of each video built
 * by listedToVideo (its own fields are taken from the object) and by JSON.stringify for any other.
 */
export function serializeVideoList(videos: readonly Video[]): string {
  let json = '[';
  for (let i = 0; i < videos.length; i++) {
    const video = videos[i]!;
    const known = fragments.get(video);
    if (i > 0) json += ',';
    json += known
      ? `${known.head}"puntuacion":${JSON.stringify(video.puntuacion)},"favorito":${video.favorito},"visto":${video.visto},"posicion":${JSON.stringify(video.posicion)},${known.tail}`
      : JSON.stringify(video);
  }
  return `${json}]`;
}
