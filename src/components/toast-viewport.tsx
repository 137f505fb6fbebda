import { useSyncExternalStore } from 'react';
import { Notification, Stack } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import { TOAST_FADE_DURATION_MS } from '../../machines/toast/toast.machine.ts';
import type { ToastActor, ToastStore } from '../lib/toasts.ts';
import { appLabels } from './app-labels.ts';

/**
 * The toasts, bottom-right (across the bottom on a phone), newest last. Rendered once, in the root
 * route, with the app's store. At the top they covered the signed-in pages' header's user menu (on
 * a phone, where a toast is as wide as the screen, the whole header), and just below the header the
 * menu's first entries once open (docs/decisions/0022-session-dialogs-and-toasts.md).
 */
export function ToastViewport({ store }: { store: ToastStore }) {
  const entries = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  if (entries.length === 0) return null;
  return (
    <Stack
      gap="sm"
      pos="fixed"
      bottom="var(--mantine-spacing-md)"
      right="var(--mantine-spacing-md)"
      style={{ zIndex: 1000, width: 'min(360px, calc(100vw - 2 * var(--mantine-spacing-md)))' }}
    >
      {entries.map((entry) => (
        <ToastItem key={entry.id} actor={entry.actor} />
      ))}
    </Stack>
  );
}

function ToastItem({ actor }: { actor: ToastActor }) {
  const kind = useSelector(actor, (snapshot) => snapshot.context.kind);
  const message = useSelector(actor, (snapshot) => snapshot.context.message);
  const visible = useSelector(actor, (snapshot) => snapshot.hasTag('visible'));
  const fading = useSelector(actor, (snapshot) => snapshot.hasTag('fading'));
  if (!visible) return null;
  const success = kind === 'success';
  return (
    <Notification
      color={success ? 'green' : 'red'}
      icon={success ? <IconCheck size={20} /> : <IconX size={20} />}
      withBorder
      mod={{ kind, fading }}
      closeButtonProps={{ 'aria-label': appLabels.close }}
      onClose={() => actor.send({ type: 'toast.close' })}
      onMouseEnter={() => actor.send({ type: 'toast.pointer.enter' })}
      onMouseLeave={() => actor.send({ type: 'toast.pointer.leave' })}
      style={{
        opacity: fading ? 0 : 1,
        transition: `opacity ${TOAST_FADE_DURATION_MS}ms ease`,
        boxShadow: 'var(--mantine-shadow-md)',
      }}
    >
      {message}
    </Notification>
  );
}
