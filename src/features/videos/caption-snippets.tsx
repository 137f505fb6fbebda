import type { ElementType, ReactNode } from 'react';
import { Anchor, Text } from '@mantine/core';
import type { components } from '../../../contract/openapi.gen.ts';
import { formatDuration } from '../../lib/format/duration.ts';
import { libraryMessages } from '../../lib/messages.ts';

type Coincidencia = components['schemas']['Coincidencia'];

/** A card shows this many of a video's matches (the server sends up to 3): the card stays a card (docs/decisions/0126-snippets-on-cards.md). */
export const SNIPPETS_PER_CARD = 2;

/** The second a snippet opens the video at: its cue's start, whole (`?t=` takes whole seconds). */
export const snippetSecond = (coincidencia: Pick<Coincidencia, 'inicio'>): number => Math.max(0, Math.floor(coincidencia.inicio));

/**
 * The cue's text as React nodes with the matched words in `<mark>` (R-LIB-24). The offsets are
 * UTF-16 indices into `texto`; out-of-range, empty or overlapping ones are dropped. The text is
 * always text: React escapes it, nothing from the server is markup.
 */
export function markedText(texto: string, marcas: Coincidencia['marcas']): ReactNode[] {
  const ranges = [...marcas]
    .map(({ desde, hasta }) => ({ desde: Math.max(0, desde), hasta: Math.min(texto.length, hasta) }))
    .filter(({ desde, hasta }) => hasta > desde)
    .sort((a, b) => a.desde - b.desde);
  const nodes: ReactNode[] = [];
  let at = 0;
  for (const { desde, hasta } of ranges) {
    if (desde < at) continue;
    if (desde > at) nodes.push(texto.slice(at, desde));
    nodes.push(<mark key={desde}>{texto.slice(desde, hasta)}</mark>);
    at = hasta;
  }
  if (at < texto.length) nodes.push(texto.slice(at));
  return nodes;
}

/** Characters of a long cue kept before and after its first match: the time after it stays on the card. */
const BEFORE = 40;
const AFTER = 80;

/** A long cue cut around its first match (the marks moved along), so that no snippet runs on. */
export function snippetWindow(texto: string, marcas: Coincidencia['marcas']): { texto: string; marcas: Coincidencia['marcas'] } {
  if (texto.length <= BEFORE + AFTER) return { texto, marcas };
  const first = Math.min(...marcas.map((marca) => marca.desde).filter((desde) => desde >= 0 && desde < texto.length), texto.length);
  const start = first >= texto.length ? 0 : Math.max(0, first - BEFORE);
  const end = Math.min(texto.length, start + BEFORE + AFTER);
  return {
    texto: texto.slice(start, end),
    marcas: marcas.map(({ desde, hasta }) => ({ desde: desde - start, hasta: Math.min(hasta, end) - start })),
  };
}

export interface CaptionSnippetsProps {
  coincidencias: readonly Coincidencia[];
  linkComponent: ElementType;
  /** The link's props for the video at a second (`{ to: '/videos/$id', params, search: { t } }`, or `{ href }`). */
  momentLink: (second: number) => Record<string, unknown>;
}

/**
 * What was said that matches the search (R-LIB-24, R-LIB-25): «…snippet…» with the matched words
 * marked and its time ('en 12:34'), each a link that opens the video at that second.
 */
export function CaptionSnippets({ coincidencias, linkComponent: Link, momentLink }: CaptionSnippetsProps) {
  if (coincidencias.length === 0) return null;
  return (
    <ul aria-label={libraryMessages.snippets} style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 4 }}>
      {coincidencias.slice(0, SNIPPETS_PER_CARD).map((coincidencia) => {
        const second = snippetSecond(coincidencia);
        const time = formatDuration(second);
        const shown = snippetWindow(coincidencia.texto, coincidencia.marcas);
        return (
          <li key={`${coincidencia.idioma}-${coincidencia.inicio}`}>
            <Anchor
              component={Link as 'a'}
              {...momentLink(second)}
              size="sm"
              c="gray.8"
              underline="hover"
              style={{ display: 'block', overflowWrap: 'anywhere' }}
            >
              <span lang={coincidencia.idioma}>«…{markedText(shown.texto, shown.marcas)}…»</span>{' '}
              <Text span inherit fw={600} c="tao.8" style={{ whiteSpace: 'nowrap' }}>
                {libraryMessages.snippetTime(time)}
              </Text>
            </Anchor>
          </li>
        );
      })}
    </ul>
  );
}
