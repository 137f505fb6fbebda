/** Types of the list's selection mode (R-ADM-15 … R-ADM-19). */
import type { components } from '../../contract/openapi.gen.ts';

/** The server's outcome for each id of a batch (docs/decisions/0127-batch-video-operations.md). */
export type BatchOutcome = components['schemas']['VideosBatchResult']['resultados'][number];

/** What a batch does to every selected video. */
export type SelectionAction =
  | { kind: 'tags'; mode: TagMode; tagIds: number[] }
  | { kind: 'visibility'; visible: boolean }
  | { kind: 'delete' };

/** 'add' (Añadir etiquetas) or 'remove' (Quitar etiquetas). */
export type TagMode = 'add' | 'remove';

export interface VideoSelectionContext {
  /** The selected videos' ids, in the order they were picked. */
  selected: number[];
  /** The tag picker's mode while it is open or its batch runs; null otherwise. */
  tagMode: TagMode | null;
  /** The batch running or last run; null before one. */
  action: SelectionAction | null;
}

/** The `apply` actor's input: the batch and the ids it is sent for. */
export interface SelectionApplyInput {
  ids: number[];
  action: SelectionAction;
}

/** `notifyDone`'s params: what ran and the server's answer per id. */
export interface SelectionDone extends SelectionApplyInput {
  outcomes: BatchOutcome[];
}

/** `notifyFailure`'s params: what was refused and why (the selection is kept). */
export interface SelectionFailure extends SelectionApplyInput {
  error: unknown;
}

/**
 * From the user: 'selection.start' (Seleccionar), 'selection.cancel' (Cancelar, Escape, Seleccionar
 * again), 'selection.toggle' (a card's checkbox), 'selection.selectAll' (every video loaded),
 * 'selection.clear' (Quitar selección), 'selection.tags' (Añadir / Quitar etiquetas),
 * 'selection.tags.submit' (the picker's button), 'selection.visibility' (Visible / Oculto),
 * 'selection.delete' (Eliminar), 'selection.confirm' (the question's Eliminar) and
 * 'selection.dismiss' (a dialog's Cancelar, close button or Escape).
 */
export type VideoSelectionEvent =
  | { type: 'selection.start' }
  | { type: 'selection.cancel' }
  | { type: 'selection.toggle'; id: number }
  | { type: 'selection.selectAll'; ids: number[] }
  | { type: 'selection.clear' }
  | { type: 'selection.tags'; mode: TagMode }
  | { type: 'selection.tags.submit'; tagIds: number[] }
  | { type: 'selection.visibility'; visible: boolean }
  | { type: 'selection.delete' }
  | { type: 'selection.confirm' }
  | { type: 'selection.dismiss' };

/**
 * 'selecting': selection mode is on (checkboxes on the cards, the bar shown). 'canAct': something
 * is selected and nothing runs (the bar's actions are enabled). 'busy': a batch runs.
 */
export type VideoSelectionTag = 'selecting' | 'canAct' | 'busy';
