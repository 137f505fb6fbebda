// The toasts' code and CSS in one chunk, loaded with the first toast (src/routes/__root.tsx).
import '../lib/styles/toast-styles.ts';

export { ToastViewport } from './toast-viewport.tsx';
