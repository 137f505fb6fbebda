import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { ToastStore } from '../../../lib/toasts.ts';
import { createUploadQueueLogic } from './upload.actors.ts';
import { UploadVideoDialog } from './upload-video-dialog.tsx';

export interface UploadWizardProps {
  queryClient: QueryClient;
  toasts: ToastStore;
  onClose: () => void;
}

/**
 * 'Subir video' as the header opens it: a fresh queue each time. The authenticated layout loads
 * this module only when an administrator opens it (its dropzone, stepper and form stay out of the
 * pages' code).
 */
export function UploadWizard({ queryClient, toasts, onClose }: UploadWizardProps) {
  const [logic] = useState(() => createUploadQueueLogic({ queryClient, toasts }));
  return <UploadVideoDialog logic={logic} onClose={onClose} />;
}
