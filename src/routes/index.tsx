import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { appLoginMachine } from '../features/auth/login.actors.ts';
import { LoginPage } from '../features/auth/login-page.tsx';
import { documentTitle, pageTitleMessages } from '../lib/first-screen-messages.ts';

export const Route = createFileRoute('/')({
  head: () => ({ meta: [{ title: documentTitle(pageTitleMessages.signIn) }] }),
  // The sign-in page is the first screen: in the entry, not a chunk fetched after it (one file, one
  // compression window: docs/decisions/0052-first-screen-budget-and-code-splitting.md).
  codeSplitGroupings: [],
  component: LoginRoute,
});

function LoginRoute() {
  const navigate = useNavigate();
  return <LoginPage logic={appLoginMachine} onSignedIn={() => void navigate({ to: '/videos' })} />;
}
