/** Types of the 'Etiqueta' filter popover (R-LIB-6, R-TAG-2, R-GEN-8). */
import type { components } from '../../contract/openapi.gen.ts';

export type Etiqueta = components['schemas']['Etiqueta'];

export interface TagFilterInput {
  /** Ids of the tag filter in effect (the address's `tag=in:…`), oldest selection first. */
  applied?: number[];
}

export interface TagFilterContext {
  /** The tag filter in effect: the chip's label and the clear control read it. */
  applied: number[];
  /** What the popover shows as selected (a copy of `applied` when it opens). */
  selected: number[];
  /** The text typed in 'Introduzca un tag'. */
  text: string;
}

/**
 * From the user: 'tagFilter.open' (click on the chip), 'tagFilter.type', 'tagFilter.select' and
 * 'tagFilter.unselect' (in the popover), 'tagFilter.apply' ('Aplicar'), 'tagFilter.cancel'
 * ('Cancelar'), 'tagFilter.dismiss' (a click outside, Escape or the chip again) and
 * 'tagFilter.clear' (the chip's clear control).
 * From the app: 'tagFilter.sync' when the filter in the address changed some other way
 * (a tag link on a card, the 'Todos' tab, the filters restored from session storage).
 */
export type TagFilterEvent =
  | { type: 'tagFilter.open' }
  | { type: 'tagFilter.type'; text: string }
  | { type: 'tagFilter.select'; id: number }
  | { type: 'tagFilter.unselect'; id: number }
  | { type: 'tagFilter.apply' }
  | { type: 'tagFilter.cancel' }
  | { type: 'tagFilter.dismiss' }
  | { type: 'tagFilter.clear' }
  | { type: 'tagFilter.sync'; applied: number[] };

/** What the host listens to (`actor.on(...)`) to write the filter into the address. */
export type TagFilterEmitted = { type: 'tagFilter.applied'; ids: number[] } | { type: 'tagFilter.cleared' };

/** 'open': the popover is shown. 'canApply': something is selected, 'Aplicar' is enabled. */
export type TagFilterTag = 'open' | 'canApply';
