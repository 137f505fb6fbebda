import { createFileRoute } from '@tanstack/react-router';
import { ForbiddenPage } from '../components/status-page.tsx';

/** SPEC.md §2: '405' 'No tiene permiso para acceder a esta página' (e.g. /statistics for a non-admin). */
export const Route = createFileRoute('/Forbidden')({
  component: ForbiddenPage,
});
