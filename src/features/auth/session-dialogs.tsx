import { Button, Group, Modal } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { dialogMessages } from '../../lib/messages.ts';
import type { SessionActorRef } from './session-actor.ts';

const blocking = { withCloseButton: false, closeOnClickOutside: false, closeOnEscape: false, centered: true } as const;
const ignoreClose = () => {};

/**
 * 'Sesión expirada' (Iniciar sesión) and 'Error obteniendo datos' (Recargar), SPEC.md §2/§8. Each
 * dialog is mounted only while it shows: neither closes back onto the page (one leaves for the
 * sign-in page, the other reloads), and two closed Modals were work in every signed-in page's first
 * render (docs/DECISIONS.md, "Less work in the first render").
 */
export function SessionDialogs({ session }: { session: SessionActorRef }) {
  const expired = useSelector(session, (snapshot) => snapshot.matches({ inside: 'expired' }));
  const loadError = useSelector(session, (snapshot) => snapshot.matches({ inside: 'loadError' }));
  return (
    <>
      {expired && (
        <Modal opened onClose={ignoreClose} title={dialogMessages.sessionExpiredTitle} {...blocking}>
          <Group justify="flex-end">
            <Button data-autofocus onClick={() => session.send({ type: 'session.sign-in' })}>
              {dialogMessages.signIn}
            </Button>
          </Group>
        </Modal>
      )}
      {loadError && (
        <Modal opened onClose={ignoreClose} title={dialogMessages.loadErrorTitle} {...blocking}>
          <Group justify="flex-end">
            <Button data-autofocus onClick={() => session.send({ type: 'session.reload' })}>
              {dialogMessages.reload}
            </Button>
          </Group>
        </Modal>
      )}
    </>
  );
}
