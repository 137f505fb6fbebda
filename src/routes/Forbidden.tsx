import { createFileRoute } from '@tanstack/react-router';
import { ForbiddenPage } from '../components/status-page.tsx';
import { documentTitle, pageTitleMessages } from '../lib/first-screen-messages.ts';

/** R-GEN-6: '405' 'No tiene permiso para acceder a esta página' (e.g. /statistics for a non-admin). */
export const Route = createFileRoute('/Forbidden')({
  head: () => ({ meta: [{ title: documentTitle(pageTitleMessages.forbidden) }] }),
  component: ForbiddenPage,
});
