import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { appLoginMachine } from '../features/auth/login.actors.ts';
import { LoginPage } from '../features/auth/login-page.tsx';

export const Route = createFileRoute('/')({
  component: LoginRoute,
});

function LoginRoute() {
  const navigate = useNavigate();
  return <LoginPage logic={appLoginMachine} onSignedIn={() => void navigate({ to: '/videos' })} />;
}
