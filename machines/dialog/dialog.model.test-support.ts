/**
 * The QA model of the dialog lifecycle (every dialog that works on something): a dialog that
 * renames a thing, whose rules are part of the model (the name needs 3 characters; the same name
 * changes nothing). Shared by dialog.machine.test.ts and `npm run qa` (tests/qa). The product's
 * dialogs (delete a video, a tag, change a role…) walk their own models in their features' tests.
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, failureSentence, type DoneEvent, type ErrorEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { createDialogMachine } from './dialog.machine.ts';
import type { DialogEvent, DialogWorkInput } from './dialog.types.ts';

/** A dialog that renames a thing: the name needs 3 characters; the same name changes nothing. */
export interface Thing {
  id: number;
  name: string;
}
export interface Rename {
  name: string;
}
export type RenameInput = DialogWorkInput<Thing, Rename>;

export const THING: Thing = { id: 4, name: 'Original' };
export const VALID: Rename = { name: 'Nuevo nombre' };
export const INVALID: Rename = { name: 'ab' };
export const UNCHANGED: Rename = { name: THING.name };
export const RENAMED: Thing = { id: 4, name: VALID.name };
export const FAILURE = { status: 500, type: 'internal-server-error' };

export const renameDialog = createDialogMachine<Thing, Rename, Thing>();

export type DialogSnapshot = SnapshotFrom<typeof renameDialog>;
export type DialogModelEvent = DialogEvent<Thing, Rename> | DoneEvent<'work', Thing> | ErrorEvent<'work'>;

const events: DialogModelEvent[] = [
  { type: 'dialog.open', subject: THING },
  { type: 'dialog.submit', payload: VALID },
  { type: 'dialog.submit', payload: INVALID },
  { type: 'dialog.submit', payload: UNCHANGED },
  { type: 'dialog.close' },
  { type: 'xstate.done.actor.work', output: RENAMED },
  { type: 'xstate.error.actor.work', error: FAILURE },
];

export const isValid = ({ payload }: RenameInput) => payload.name.trim().length >= 3;
export const nothingToDo = ({ subject, payload }: RenameInput) => payload.name === subject.name;

/** The rules the app supplies are part of the model: which submits work, which stay, which just close. */
export const rules = {
  validate: (_: unknown, input: RenameInput) => isValid(input),
  nothingToDo: (_: unknown, input: RenameInput) => nothingToDo(input),
};

export const dialogModel = defineQaModel({
  name: 'dialog',
  title: 'El ciclo de vida de un diálogo que trabaja sobre algo (el ejemplo: renombrar)',
  machine: renameDialog,
  modelMachine: renameDialog.provide({ guards: rules }),
  events,
  eventDescriptions: {
    'dialog.open': ({ subject }) => `el usuario abre el diálogo sobre '${subject.name}'`,
    'dialog.submit': ({ payload }) =>
      payload.name === THING.name
        ? 'el usuario confirma sin cambiar el nombre'
        : isValid({ subject: THING, payload })
          ? `el usuario confirma el nombre '${payload.name}'`
          : `el usuario confirma un nombre demasiado corto ('${payload.name}')`,
    'dialog.close': 'el usuario cierra el diálogo (Cancelar, el botón de cerrar, Escape)',
    'xstate.done.actor.work': 'el servidor hace el trabajo',
    'xstate.error.actor.work': ({ error }) => `al hacer el trabajo, ${failureSentence(error)}`,
  } satisfies EventDescriptions<DialogModelEvent>,
});
