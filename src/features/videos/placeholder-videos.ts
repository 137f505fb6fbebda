import type { components } from '../../../contract/openapi.gen.ts';

type Video = components['schemas']['Video'];

/** R-LIB-15: while the tags or the list load or fail, 18 sample videos with lorem text are shown in a loading style. */
export const PLACEHOLDER_COUNT = 18;

const LOREM_TITLE = 'Lorem ipsum dolor sit amet';
const LOREM_SHORT = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.';

/** Sample videos (negative ids: never a real one) for `VideoCard placeholder`. */
export function placeholderVideos(count = PLACEHOLDER_COUNT): Video[] {
  return Array.from({ length: count }, (_, index) => ({
    id: -(index + 1),
    idExterno: `placeholder-${index + 1}`,
    titulo: LOREM_TITLE,
    descripcion: null,
    descripcionCorta: LOREM_SHORT,
    duracion: 0,
    puntuacionMedia: 0,
    puntuacion: null,
    favorito: false,
    visto: true,
    fechaAlta: '1970-01-01T00:00:00.000Z',
    urlThumbnail: null,
    urlPreview: null,
    urlHls: null,
    urlStoryboard: null,
    idiomasSubtitulos: [],
    capitulos: [],
    urlVideo: '',
    etiquetas: [
      { id: -1, nombre: 'Lorem' },
      { id: -2, nombre: 'Ipsum' },
    ],
    isVisible: true,
    organizacionId: null,
    nombreUsuarioAlta: '',
    posicion: null,
  }));
}
