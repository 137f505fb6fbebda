import { Button, Group, Modal } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { dialogMessages } from '../../lib/messages.ts';
import type { SessionActorRef } from './session-actor.ts';

const blocking = { withCloseButton: false, closeOnClickOutside: false, closeOnEscape: false, centered: true } as const;
const ignoreClose = () => {};

/** 'Sesión expirada' (Iniciar sesión) and 'Error obteniendo datos' (Recargar), SPEC.md §2/§8. */
export function SessionDialogs({ session }: { session: SessionActorRef }) {
  const expired = useSelector(session, (snapshot) => snapshot.matches({ inside: 'expired' }));
  const loadError = useSelector(session, (snapshot) => snapshot.matches({ inside: 'loadError' }));
  return (
    <>
      <Modal opened={expired} onClose={ignoreClose} title={dialogMessages.sessionExpiredTitle} {...blocking}>
        <Group justify="flex-end">
          <Button data-autofocus onClick={() => session.send({ type: 'session.sign-in' })}>
            {dialogMessages.signIn}
          </Button>
        </Group>
      </Modal>
      <Modal opened={loadError} onClose={ignoreClose} title={dialogMessages.loadErrorTitle} {...blocking}>
        <Group justify="flex-end">
          <Button data-autofocus onClick={() => session.send({ type: 'session.reload' })}>
            {dialogMessages.reload}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
