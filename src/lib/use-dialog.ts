import { useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { DialogMachine } from '../../machines/dialog/dialog.machine.ts';

/**
 * What a dialog's component reads from its running dialog machine (machines/dialog), for every
 * dialog of the product: whether it is on screen, busy, rejected by its rules, failed and why; the
 * subject it shows (the last one while it fades out after closing); and a key that changes at each
 * opening, so the form inside starts again from the subject.
 */
export function useDialog<TSubject, TPayload, TOutput>(actorRef: ActorRefFrom<DialogMachine<TSubject, TPayload, TOutput>>) {
  const opened = useSelector(actorRef, (snapshot) => snapshot.hasTag('open'));
  const busy = useSelector(actorRef, (snapshot) => snapshot.hasTag('busy'));
  const invalid = useSelector(actorRef, (snapshot) => snapshot.hasTag('invalid'));
  const failed = useSelector(actorRef, (snapshot) => snapshot.hasTag('failed'));
  const error = useSelector(actorRef, (snapshot) => snapshot.context.error);
  const subject = useSelector(actorRef, (snapshot) => snapshot.context.subject);
  const shown = useRef<{ subject: TSubject | null; opening: number; opened: boolean }>({ subject: null, opening: 0, opened: false });
  if (opened && !shown.current.opened) shown.current.opening += 1;
  shown.current.opened = opened;
  if (subject !== null) shown.current.subject = subject;
  return {
    opened,
    busy,
    invalid,
    failed,
    error,
    subject: shown.current.subject,
    opening: shown.current.opening,
    close: () => actorRef.send({ type: 'dialog.close' }),
    submit: (payload: TPayload) => actorRef.send({ type: 'dialog.submit', payload }),
  };
}
