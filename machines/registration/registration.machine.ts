import { assign, fromPromise, setup } from 'xstate';
import { endedWith, secondFactorMachine } from '../second-factor/second-factor.machine.ts';
import { problemType } from '../shared/problem.ts';
import type {
  FieldErrors,
  RegisterAnswer,
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
 * R-AUTH-6 registration rules. Blank is empty or whitespace only. The user name and the
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
 * Registration from an invitation (route '/register', R-AUTH-6, R-AUTH-7): the form, then the
 * same second factor as the login (the `secondFactor` child machine: MFA enrolment modal, then the
 * token is stored) and the user goes to /videos (or to '/' when the token cannot be stored).
 */
export const registrationMachine = setup({
  types: {} as {
    context: RegistrationContext;
    events: RegistrationEvent;
    input: RegistrationInput;
    tags: RegistrationTag;
  },
  actors: {
    registerUser: fromPromise<RegisterAnswer, RegisterRequest>(async () => {
      throw new Error('registerUser is supplied by the app with .provide()');
    }),
    // Its mfa and storeToken actors are supplied by the app with .provide().
    secondFactor: secondFactorMachine,
  },
  actions: {
    goToVideos: () => {
      throw new Error('goToVideos is supplied by the app with .provide()');
    },
    goToLogin: () => {
      throw new Error('goToLogin is supplied by the app with .provide()');
    },
  },
  guards: {
    isFormValid: ({ context }) => Object.keys(validateRegistration(context.values)).length === 0,
    endedWith,
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
    errorType: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      description: 'The form: Usuario, Contraseña, Confirma Contraseña and Entrar, with the §5 messages of touched fields.',
      meta: { qa: 'Formulario de registro' },
      initial: 'ready',
      states: {
        ready: { description: 'No server message.', meta: { qa: 'Formulario de registro, sin mensajes' } },
        rejected: {
          description: 'An Alert with the §8 register message for errorType.',
          meta: { qa: 'Formulario de registro con un error' },
          tags: ['error'],
        },
        locked: {
          description: "MFA attempts exceeded: 'Número de intentos de loggin excedido'.",
          meta: { qa: 'Formulario de registro: intentos agotados' },
          tags: ['error'],
        },
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
      meta: { qa: 'Enviando el registro' },
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
          target: 'secondFactor',
          actions: assign({
            pendingToken: ({ event }) => event.output.token,
            otp: ({ event }) => event.output.otp,
            errorType: null,
          }),
        },
        onError: {
          target: 'editing.rejected',
          actions: assign({ errorType: ({ event }) => problemType(event.error) }),
        },
      },
    },
    secondFactor: {
      description:
        "The 'Autentificación MFA' enrolment modal over the form, then the token is stored with the form disabled (child machine `secondFactor`).",
      meta: { qa: 'Modal «Autentificación MFA» (alta)' },
      invoke: {
        id: 'secondFactor',
        src: 'secondFactor',
        input: ({ context }) => ({ pendingToken: context.pendingToken, otp: context.otp }),
        onDone: [
          {
            guard: { type: 'endedWith', params: ({ event }) => ({ output: event.output, outcome: 'verified' }) },
            target: 'signedIn',
            actions: assign(noChallenge),
          },
          {
            guard: { type: 'endedWith', params: ({ event }) => ({ output: event.output, outcome: 'locked' }) },
            target: 'editing.locked',
            actions: assign(noChallenge),
          },
          {
            guard: { type: 'endedWith', params: ({ event }) => ({ output: event.output, outcome: 'notStored' }) },
            target: 'tokenNotStored',
            actions: assign(noChallenge),
          },
          { target: 'editing.ready', actions: assign(noChallenge) },
        ],
      },
    },
    signedIn: {
      description: 'Registered and signed in: the app navigates to /videos.',
      meta: { qa: 'Registrado y con sesión: la lista de videos' },
      type: 'final',
      entry: 'goToVideos',
    },
    tokenNotStored: {
      description: "The browser refused to store the token: the app navigates to '/'.",
      meta: { qa: 'Sesión no guardada: vuelta al inicio de sesión' },
      type: 'final',
      entry: 'goToLogin',
    },
  },
});
