import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { appRegistrationMachine } from '../features/auth/registration.actors.ts';
import { RegistrationPage } from '../features/auth/registration-page.tsx';
import { authMessages, documentTitle } from '../lib/first-screen-messages.ts';

interface RegisterSearch {
  invitation?: string;
}

export const Route = createFileRoute('/register')({
  // The router parses numeric-looking values as numbers: read any scalar back as text.
  validateSearch: (search: Record<string, unknown>): RegisterSearch => {
    const { invitation } = search;
    return typeof invitation === 'string' || typeof invitation === 'number' ? { invitation: String(invitation) } : {};
  },
  head: () => ({ meta: [{ title: documentTitle(authMessages.registerTitle) }] }),
  component: RegisterRoute,
});

function RegisterRoute() {
  const { invitation } = Route.useSearch();
  const navigate = useNavigate();
  return (
    <RegistrationPage
      logic={appRegistrationMachine}
      invitation={invitation ?? ''}
      onSignedIn={() => void navigate({ to: '/videos' })}
      onTokenNotStored={() => void navigate({ to: '/' })}
    />
  );
}
