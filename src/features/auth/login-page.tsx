import { useState, type FormEvent } from 'react';
import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { loginMachine } from '../../../machines/login/login.machine.ts';
import { authMessages, loginMessage } from '../../lib/first-screen-messages.ts';
import { AuthCard, AuthFormEnd } from './auth-card.tsx';
import { LazyMfaModal } from './lazy-mfa-modal.tsx';
import { useSecondFactor, type SecondFactorActorRef } from './second-factor.ts';
import { preloadSignIn } from './sign-in-code.ts';

interface LoginPageProps {
  /** The login machine with its actors provided (the app's, or test doubles); the page supplies goToVideos. */
  logic: typeof loginMachine;
  /** Called once the session token is stored. */
  onSignedIn: () => void;
}

/** Route '/': Usuario, Contraseña, Entrar, then the MFA modal (R-AUTH-1). */
export function LoginPage({ logic, onSignedIn }: LoginPageProps) {
  // @xstate/react keeps one actor and takes each render's implementations: the latest onSignedIn runs.
  const actorRef = useActorRef(logic.provide({ actions: { goToVideos: () => onSignedIn() } }));
  const error = useSelector(actorRef, (snapshot) =>
    snapshot.hasTag('error') ? loginMessage(snapshot.context.errorType ?? undefined) : null,
  );
  const secondFactorRef = useSelector(
    actorRef,
    (snapshot) => snapshot.children.secondFactor as SecondFactorActorRef | undefined,
  );
  const { mfaRef, storing } = useSecondFactor(secondFactorRef);
  const busy = useSelector(actorRef, (snapshot) => snapshot.hasTag('busy') || snapshot.status === 'done') || storing;
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    preloadSignIn();
    actorRef.send({ type: 'login.submit', user, password });
  };

  return (
    <AuthCard>
      {/* Typing is the intent to sign in: what comes next starts loading then (or on submit), not with the page. */}
      <form onSubmit={submit} onInput={preloadSignIn} noValidate>
        <Stack>
          <TextInput
            // Focus lands here when the page is shown (src/lib/page-focus.ts).
            data-page-focus
            label={authMessages.user}
            autoComplete="username"
            value={user}
            onChange={(event) => setUser(event.currentTarget.value)}
            disabled={busy}
          />
          <PasswordInput
            label={authMessages.password}
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            disabled={busy}
          />
          <AuthFormEnd error={error} busy={busy} />
        </Stack>
      </form>
      <LazyMfaModal actorRef={mfaRef} />
    </AuthCard>
  );
}
