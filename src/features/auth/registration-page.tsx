import { useId, type FormEvent } from 'react';
import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { visibleErrors, type registrationMachine } from '../../../machines/registration/registration.machine.ts';
import type { FieldError, RegistrationField } from '../../../machines/registration/registration.types.ts';
import { authMessages, mfaMessages, registerMessage, validationMessages } from '../../lib/messages.ts';
import { AuthCard, AuthFormEnd } from './auth-card.tsx';
import { MfaModal, useSecondFactor, type SecondFactorActorRef } from './mfa-modal.tsx';

interface RegistrationPageProps {
  /** The registration machine with its actors provided (the app's, or test doubles); the page supplies its navigation. */
  logic: typeof registrationMachine;
  /** The ?invitation= query parameter. */
  invitation: string;
  /** Called once the session token is stored. */
  onSignedIn: () => void;
  /** Called when the browser refuses to store the token (SPEC.md §4: go to '/'). */
  onTokenNotStored: () => void;
}

const fieldMessages: Record<FieldError, string> = {
  required: validationMessages.required,
  mismatch: validationMessages.passwordsMismatch,
};

/** Route '/register': Usuario, Contraseña, Confirma Contraseña, Entrar, then the MFA enrolment (SPEC.md §2, §5). */
export function RegistrationPage({ logic, invitation, onSignedIn, onTokenNotStored }: RegistrationPageProps) {
  // @xstate/react keeps one actor and takes each render's implementations: the latest callbacks run.
  const actorRef = useActorRef(
    logic.provide({ actions: { goToVideos: () => onSignedIn(), goToLogin: () => onTokenNotStored() } }),
    { input: { invitation } },
  );
  const values = useSelector(actorRef, (snapshot) => snapshot.context.values);
  const errors = useSelector(actorRef, (snapshot) => visibleErrors(snapshot.context), shallowEqual);
  const secondFactorRef = useSelector(
    actorRef,
    (snapshot) => snapshot.children.secondFactor as SecondFactorActorRef | undefined,
  );
  const { mfaRef, storing } = useSecondFactor(secondFactorRef);
  const busy = useSelector(actorRef, (snapshot) => snapshot.hasTag('busy') || snapshot.status === 'done') || storing;
  const alert = useSelector(actorRef, (snapshot) =>
    snapshot.matches({ editing: 'locked' })
      ? mfaMessages.attemptsExceeded
      : snapshot.matches({ editing: 'rejected' })
        ? registerMessage(snapshot.context.errorType ?? undefined)
        : null,
  );

  const formId = useId();
  const field = (name: RegistrationField) => {
    const rule = errors[name];
    const id = `${formId}-${name}`;
    return {
      id,
      value: values[name],
      error: rule ? fieldMessages[rule] : undefined,
      // PasswordInput does not link its error to the input itself (Mantine names it `${id}-error`).
      'aria-invalid': rule ? true : undefined,
      'aria-describedby': rule ? `${id}-error` : undefined,
      disabled: busy,
      onChange: (event: { currentTarget: HTMLInputElement }) =>
        actorRef.send({ type: 'registration.change', field: name, value: event.currentTarget.value }),
      onBlur: () => actorRef.send({ type: 'registration.blur', field: name }),
    };
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actorRef.send({ type: 'registration.submit' });
  };

  return (
    <AuthCard heading={authMessages.registerTitle}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={authMessages.user} autoComplete="username" {...field('user')} />
          <PasswordInput label={authMessages.password} autoComplete="new-password" {...field('password')} />
          <PasswordInput label={authMessages.confirmPassword} autoComplete="new-password" {...field('confirmation')} />
          <AuthFormEnd error={alert} busy={busy} />
        </Stack>
      </form>
      <MfaModal actorRef={mfaRef} />
    </AuthCard>
  );
}
