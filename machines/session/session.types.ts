export type SessionEvent =
  /** The authenticated area was mounted (after the single sign-on gate). */
  | { type: 'session.enter' }
  /** The authenticated area was left (unmounted). */
  | { type: 'session.leave' }
  /** Mouse, keyboard, scroll or touch activity (sent by the listenForActivity actor). */
  | { type: 'session.activity' }
  /** An API call answered 401 or 403. */
  | { type: 'session.expired' }
  /** A data call failed with status >= 500, a network error or a time-out. */
  | { type: 'session.load-error' }
  /** 'Iniciar sesión' in the 'Sesión expirada' dialog. */
  | { type: 'session.sign-in' }
  /** 'Recargar' in the 'Error obteniendo datos' dialog. */
  | { type: 'session.reload' }
  /** 'Cerrar sesión' in the user menu. */
  | { type: 'session.logout' };

export type SessionTag = 'dialog';
