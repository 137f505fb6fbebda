import { createContext, useContext } from 'react';

/**
 * Opens the 'Subir video' wizard, as the header's menu entry does: the authenticated layout
 * (src/routes/_auth.tsx), which holds the wizard, provides it to its pages, which offer it to
 * administrators only (as the header shows its entry); outside the layout there is none.
 */
export const UploadLauncherContext = createContext<(() => void) | undefined>(undefined);

export const useUploadLauncher = (): (() => void) | undefined => useContext(UploadLauncherContext);
