import { useId, type FormEvent } from 'react';
import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { visibleErrors, type registrationMachine } from '../../../machines/registration/registration.machine.ts';
import type { FieldError, RegistrationField } from '../../../machines/registration/registration.types.ts';
import { authMessages, mfaMessages, registerMessage, validationMessages } from '../../lib/first-screen-messages.ts';
import { AuthCard, AuthFormEnd } from './auth-card.tsx';
import { LazyMfaModal } from './lazy-mfa-modal.tsx';
import { useSecondFactor, type SecondFactorActorRef } from './second-factor.ts';
import { preloadSignIn } from './sign-in-code.ts';

interface RegistrationPageProps {
  /** The registration machine with its actors provided (the app's, or test doubles); the page supplies its navigation. */
  logic: typeof registrationMachine;
  /** The ?invitation= query parameter. */
  invitation: string;
  /** Called once the session token is stored. */
  onSignedIn: () => void;
  /** Called when the browser refuses to store the token (R-AUTH-7: go to '/'). */
  onTokenNotStored: () => void;
}

const fieldMessages: Record<FieldError, string> = {
  required: validationMessages.required,
  mismatch: validationMessages.passwordsMismatch,
};

/** Route '/register': Usuario, Contraseña, Confirma Contraseña, Entrar, then the MFA enrolment (R-AUTH-6). */
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
    preloadSignIn();
    actorRef.send({ type: 'registration.submit' });
  };

  return (
    <AuthCard heading={authMessages.registerTitle}>
      {/* Typing is the intent to sign in: what comes next starts loading then (or on submit), not with the page. */}
      <form onSubmit={submit} onInput={preloadSignIn} noValidate>
        <Stack>
          {/* Not focused for the person (unlike the sign-in page): a field is checked when left, so a
              focused Usuario would say 'obligatorio' as soon as they clicked another field first. */}
          <TextInput label={authMessages.user} autoComplete="username" {...field('user')} />
          <PasswordInput label={authMessages.password} autoComplete="new-password" {...field('password')} />
          <PasswordInput label={authMessages.confirmPassword} autoComplete="new-password" {...field('confirmation')} />
          <AuthFormEnd error={alert} busy={busy} />
        </Stack>
      </form>
      <LazyMfaModal actorRef={mfaRef} />
    </AuthCard>
  );
}
