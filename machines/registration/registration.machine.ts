import { assign, fromPromise, setup } from 'xstate';
import { problemOf, secondFactorActors, secondFactorGuards } from '../mfa/mfa.machine.ts';
import type { LoginAnswer } from '../mfa/mfa.types.ts';
import type {
  FieldErrors,
  RegisterRequest,
  RegistrationContext,
  RegistrationEvent,
  RegistrationField,
  RegistrationInput,
  RegistrationTag,
  RegistrationValues,
} from './registration.types.ts';

const isBlank = (value: string) => value.trim() === '';

/**
 * SPEC.md §5 registration rules. Blank is empty or whitespace only. The user name and the
 * password are required; if the password or its confirmation is filled they must match, and
 * when both are blank the confirmation is required too.
 */
export function validateRegistration(values: RegistrationValues): FieldErrors {
  const errors: FieldErrors = {};
  if (isBlank(values.user)) errors.user = 'required';
  if (isBlank(values.password)) errors.password = 'required';
  if (isBlank(values.password) && isBlank(values.confirmation)) errors.confirmation = 'required';
  else if (values.password !== values.confirmation) errors.confirmation = 'mismatch';
  return errors;
}

/** The messages on screen: a field's rule shows once it was touched or a submit was tried. */
export function visibleErrors(context: Pick<RegistrationContext, 'values' | 'touched' | 'submitted'>): FieldErrors {
  const errors = validateRegistration(context.values);
  const fields = Object.keys(errors) as RegistrationField[];
  return Object.fromEntries(
    fields.filter((field) => context.submitted || context.touched[field]).map((field) => [field, errors[field]]),
  );
}

const noChallenge = { pendingToken: '', otp: { state: '', user: '' } } as const;
const untouched = { user: false, password: false, confirmation: false } as const;

/**
 * Registration from an invitation (route '/register', SPEC.md §2/§4/§5): the form, then the
 * same MFA enrolment modal as the login, then the token is stored and the user goes to /videos
 * (or to '/' when the token cannot be stored).
 */
export const registrationMachine = setup({
  types: {} as {
    context: RegistrationContext;
    events: RegistrationEvent;
    input: RegistrationInput;
    tags: RegistrationTag;
  },
  actors: {
    registerUser: fromPromise<LoginAnswer, RegisterRequest>(async () => {
      throw new Error('registerUser is supplied by the app with .provide()');
    }),
    ...secondFactorActors,
  },
  actions: {
    goToVideos: () => {},
    goToLogin: () => {},
  },
  guards: {
    isFormValid: ({ context }) => Object.keys(validateRegistration(context.values)).length === 0,
    ...secondFactorGuards,
  },
}).createMachine({
  id: 'registration',
  description: 'Account creation from an invitation link, then second-factor enrolment.',
  context: ({ input }) => ({
    ...noChallenge,
    invitation: input.invitation,
    values: { user: '', password: '', confirmation: '' },
    touched: untouched,
    submitted: false,
    sessionToken: '',
    errorType: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      description: 'The form: Usuario, Contraseña, Confirma Contraseña and Entrar, with the §5 messages of touched fields.',
      initial: 'ready',
      states: {
        ready: { description: 'No server message.' },
        rejected: { description: 'An Alert with the §8 register message for errorType.', tags: ['error'] },
        locked: { description: "MFA attempts exceeded: 'Número de intentos de loggin excedido'.", tags: ['error'] },
      },
      on: {
        'registration.change': {
          actions: assign({
            values: ({ context, event }) => ({ ...context.values, [event.field]: event.value }),
            touched: ({ context, event }) => ({ ...context.touched, [event.field]: true }),
          }),
        },
        'registration.blur': {
          actions: assign({ touched: ({ context, event }) => ({ ...context.touched, [event.field]: true }) }),
        },
        'registration.submit': [{ guard: 'isFormValid', target: 'sending' }, { actions: assign({ submitted: true }) }],
      },
    },
    sending: {
      description: 'POST /api/register: inputs and Entrar disabled, spinner on Entrar.',
      tags: ['busy'],
      invoke: {
        id: 'registerUser',
        src: 'registerUser',
        input: ({ context }) => ({
          user: context.values.user,
          password: context.values.password,
          token: context.invitation,
        }),
        onDone: {
          target: 'mfa',
          actions: assign({
            pendingToken: ({ event }) => event.output.token,
            otp: ({ event }) => event.output.otp,
            errorType: null,
          }),
        },
        onError: {
          target: 'editing.rejected',
          actions: assign({ errorType: ({ event }) => problemOf(event.error).type ?? null }),
        },
      },
    },
    mfa: {
      description: "The 'Autentificación MFA' enrolment modal is open (child machine `mfa`).",
      invoke: {
        id: 'mfa',
        src: 'mfa',
        input: ({ context }) => ({ pendingToken: context.pendingToken, otp: context.otp }),
        onDone: [
          {
            guard: { type: 'isVerified', params: ({ event }) => event.output },
            target: 'storingToken',
            actions: assign({
              sessionToken: ({ event }) => (event.output.outcome === 'verified' ? event.output.token : ''),
            }),
          },
          {
            guard: { type: 'isLocked', params: ({ event }) => event.output },
            target: 'editing.locked',
            actions: assign(noChallenge),
          },
          { target: 'editing.ready', actions: assign(noChallenge) },
        ],
      },
    },
    storingToken: {
      description: 'Storing the session token in local storage; the form stays disabled.',
      tags: ['busy'],
      invoke: {
        id: 'storeToken',
        src: 'storeToken',
        input: ({ context }) => ({ token: context.sessionToken }),
        onDone: { target: 'signedIn' },
        onError: { target: 'tokenNotStored' },
      },
    },
    signedIn: {
      description: 'Registered and signed in: the app navigates to /videos.',
      type: 'final',
      entry: 'goToVideos',
    },
    tokenNotStored: {
      description: "The browser refused to store the token: the app navigates to '/'.",
      type: 'final',
      entry: 'goToLogin',
    },
  },
});
