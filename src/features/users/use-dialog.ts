import { useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { DialogMachine } from '../../../machines/dialog/dialog.machine.ts';

/**
 * (The same hook as src/features/videos/manage/use-dialog.ts, which a feature may not import; this
 * one also says whether the last work failed, and why.)
 *
 * What a dialog's component reads from its running dialog machine: whether it is on screen, busy,
 * rejected by its rules; the subject it shows (the last one while it fades out after closing); and a
 * key that changes at each opening, so the form inside starts again from the subject.
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
