/**
 * The part of the message table (messages.ts, which re-exports it) that the first screen shows:
 * the sign-in pages, the second factor, the status pages and the session's dialogs. Apart so that
 * the first screen's bundle does not carry every area's texts
 * (docs/decisions/0052-first-screen-budget-and-code-splitting.md); code of the first screen imports it from here, everything else from messages.ts.
 */

const GENERIC = 'Ha ocurrido un error';
const ACCESS_DENIED = 'Acceso no permitido';
const SIGN_IN = 'Iniciar sesión';

const loginMessages: Record<string, string> = {
  'user-doesnt-exist': 'Usuario o contraseña invalida',
  'wrong-password': 'Usuario o contraseña invalida',
  'access-denied': ACCESS_DENIED,
  'blocked-user': 'Usuario bloqueado',
  'number-of-login-attempts-exceeded': 'Número de intentos de loggin excedido',
};

const registerMessages: Record<string, string> = {
  'users-exists': 'Este nombre de usuario ya está en uso',
  'register-invitation-expired': 'Esta invitación ha expirado',
  'register-invitation-was-used': 'Esta invitación ya ha sido utilizada',
};

const ssoMessages: Record<string, string> = {
  'tao-token expired': 'El token ha expirado',
  invalid: 'El token es invalido',
  'invalid-signature': 'El token es invalido',
};

export const mfaMessages = {
  invalidCode: 'El código no es válido',
  attemptsExceeded: 'Número de intentos de loggin excedido',
} as const;

/** Login error text for a problem type; anything unknown is the generic error. */
export function loginMessage(type: string | undefined): string {
  return (type && loginMessages[type]) || GENERIC;
}

export function registerMessage(type: string | undefined): string {
  return (type && registerMessages[type]) || GENERIC;
}

export function ssoMessage(type: string | undefined): string {
  return (type && ssoMessages[type]) || GENERIC;
}

export const genericError = GENERIC;

export const validationMessages = {
  required: '* Este campo es obligatorio',
  passwordsMismatch: 'Las contraseñas no coinciden',
} as const;

export const dialogMessages = {
  loadErrorTitle: 'Error obteniendo datos',
  reload: 'Recargar',
  sessionExpiredTitle: 'Sesión expirada',
  signIn: SIGN_IN,
} as const;

export const pageMessages = {
  appTitle: 'Contenido audiovisual TAO',
  forbiddenCode: '405',
  forbidden: 'No tiene permiso para acceder a esta página',
  notFoundCode: '404',
  notFound: 'Página no encontrada',
  errorCode: '500',
  error: 'Error inesperado',
} as const;

/** Labels and texts of the sign-in screens (R-AUTH-8): login, registration, MFA modal, single sign-on. */
export const authMessages = {
  user: 'Usuario',
  password: 'Contraseña',
  confirmPassword: 'Confirma Contraseña',
  enter: 'Entrar',
  cancel: 'Cancelar',
  registerTitle: 'Registro',
  mfaTitle: 'Autentificación MFA',
  mfaSetup: 'Para mayor seguridad debe habilitar la autenticación en dos pasos.',
  mfaStepOpenApp: 'Abra una aplicación de autenticación, como Google Authenticator o Microsoft Authenticator.',
  mfaStepScan: 'Añada una cuenta escaneando este código QR:',
  mfaManualKey: 'Si no puede escanearlo, introduzca esta clave manualmente:',
  mfaStepType: 'Escriba el código que genera la aplicación.',
  mfaPrompt: 'Introduzca el código generado por su aplicación de autenticación:',
  mfaCodePlaceholder: 'Código',
  mfaQrLabel: 'Código QR para la aplicación de autenticación',
  noAccess: 'Usted no tiene acceso a la aplicación',
  loading: 'Cargando',
  logout: 'Cerrar sesión',
} as const;

/**
 * Each page's own part of the document title (R-GEN-5), before the app's name; the other pages'
 * titles reuse their headings' texts (authMessages.registerTitle, pageMessages.notFound …).
 */
export const pageTitleMessages = {
  signIn: SIGN_IN,
  statistics: 'Estadísticas',
  forbidden: ACCESS_DENIED,
} as const;

/** 'Videos · Contenido audiovisual TAO': the page's name, then the app's. */
export function documentTitle(page?: string): string {
  return page ? `${page} · ${pageMessages.appTitle}` : pageMessages.appTitle;
}
