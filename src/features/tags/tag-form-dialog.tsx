import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import type { ActorRefFrom } from 'xstate';
import { tagAdminMessages, validationMessages, videoFormMessages } from '../../lib/messages.ts';
import { validateTagNombre, type TagNombreError } from './tag-form.rules.ts';
import { isDuplicateName, type TagFormSubject, type tagFormDialog } from './tags.actors.ts';
import { useDialog } from '../../lib/use-dialog.ts';

export interface TagFormDialogProps {
  /** The running form dialog (`createTagAdminLogic(…).formLogic`). */
  actorRef: ActorRefFrom<typeof tagFormDialog>;
  /** Its place in the tag dialogs' `Modal.Stack`. */
  stackId: string;
}

function ruleMessage(error: TagNombreError): string {
  if (error.key === 'required') return validationMessages.required;
  if (error.key === 'tooShort') return videoFormMessages.tooShort(error.min);
  return videoFormMessages.tooLong(error.max);
}

/**
 * 'Nueva etiqueta' and 'Editar etiqueta': the field Nombre (the tag's name when editing), Guardar
 * (checks R-TAG-2's rules, then saves; a loader while it saves) and Cancelar. The R-TAG-2 messages
 * show under the field after a Guardar that broke a rule and follow the corrections; a name another
 * tag has shows 'Ya existe una etiqueta con ese nombre' there until it is changed.
 */
export function TagFormDialog({ actorRef, stackId }: TagFormDialogProps) {
  const dialog = useDialog(actorRef);
  const editing = dialog.subject?.tag != null;
  return (
    <Modal
      stackId={stackId}
      opened={dialog.opened}
      onClose={dialog.close}
      title={editing ? tagAdminMessages.editTitle : tagAdminMessages.createTitle}
      centered
      closeOnClickOutside={!dialog.busy}
      withCloseButton={!dialog.busy}
    >
      {dialog.subject && (
        <TagForm
          key={dialog.opening}
          subject={dialog.subject}
          busy={dialog.busy}
          invalid={dialog.invalid}
          duplicate={dialog.failed && isDuplicateName(dialog.error)}
          onCancel={dialog.close}
          onSubmit={(nombre) => dialog.submit({ nombre })}
        />
      )}
    </Modal>
  );
}

interface TagFormProps {
  subject: TagFormSubject;
  busy: boolean;
  /** The last Guardar broke a rule: the message shows (and follows the user's corrections). */
  invalid: boolean;
  /** The server refused the last name sent: another tag has it. */
  duplicate: boolean;
  onCancel: () => void;
  onSubmit: (nombre: string) => void;
}

function TagForm({ subject, busy, invalid, duplicate, onCancel, onSubmit }: TagFormProps) {
  const [nombre, setNombre] = useState(subject.tag?.nombre ?? '');
  const [refused, setRefused] = useState<string | null>(null);
  const ruleError = invalid ? validateTagNombre(nombre) : null;
  const error = ruleError ? ruleMessage(ruleError) : duplicate && refused === nombre ? tagAdminMessages.duplicate : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefused(nombre);
    onSubmit(nombre);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <TextInput
          label={tagAdminMessages.nombre}
          value={nombre}
          onChange={(event) => setNombre(event.currentTarget.value)}
          error={error}
          disabled={busy}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {tagAdminMessages.cancel}
          </Button>
          <Button type="submit" loading={busy}>
            {tagAdminMessages.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
