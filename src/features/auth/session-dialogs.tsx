import { Button, Group, Modal } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { dialogMessages } from '../../lib/messages.ts';
import type { SessionActorRef } from './session-actor.ts';

const blocking = { withCloseButton: false, closeOnClickOutside: false, closeOnEscape: false, centered: true } as const;
const ignoreClose = () => {};

/**
 * 'Sesión expirada' (Iniciar sesión) and 'Error obteniendo datos' (Recargar), R-SES-2. Each
 * dialog is mounted only while it shows: neither closes back onto the page (one leaves for the
 * sign-in page, the other reloads), and two closed Modals were work in every signed-in page's first
 * render (docs/decisions/0063-first-render-in-slices.md).
 */
export function SessionDialogs({ session }: { session: SessionActorRef }) {
  const expired = useSelector(session, (snapshot) => snapshot.matches({ inside: 'expired' }));
  const loadError = useSelector(session, (snapshot) => snapshot.matches({ inside: 'loadError' }));
  return (
    <>
      {expired && (
        <BlockingDialog title={dialogMessages.sessionExpiredTitle} action={dialogMessages.signIn} onAction={() => session.send({ type: 'session.sign-in' })} />
      )}
      {loadError && (
        <BlockingDialog title={dialogMessages.loadErrorTitle} action={dialogMessages.reload} onAction={() => session.send({ type: 'session.reload' })} />
      )}
    </>
  );
}

/** A dialog the user can only leave by its one button (no close button, Escape or click outside). */
function BlockingDialog({ title, action, onAction }: { title: string; action: string; onAction: () => void }) {
  return (
    <Modal opened onClose={ignoreClose} title={title} {...blocking}>
      <Group justify="flex-end">
        <Button data-autofocus onClick={onAction}>
          {action}
        </Button>
      </Group>
    </Modal>
  );
}
