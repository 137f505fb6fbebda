/**
 * The QA model of single sign-on (an address with ?xwikiid=…): every answer of the sign-on and of
 * storing the token, from an address with and without xwikiid; every R-AUTH-8 toast text must be shown.
 * Shared by sso.test.tsx and `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { ssoMessage } from '../../src/lib/messages.ts';
import { defineQaModel, failureSentence, type DoneEvent, type ErrorEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { ssoMachine } from './sso.machine.ts';
import type { SsoAnswer } from './sso.types.ts';

export const SSO_TOKEN = 'xwiki-abc';
export const SESSION = 'header.eyJ1c2VyIjoiYW5hIiwicm9sZSI6InVzZXIifQ.signature';

export type SsoSnapshot = SnapshotFrom<typeof ssoMachine>;
export type SsoModelEvent =
  DoneEvent<'authenticate', SsoAnswer> | ErrorEvent<'authenticate'> | DoneEvent<'storeToken'> | ErrorEvent<'storeToken'>;

const ssoProblems = [
  { status: 401, type: 'tao-token expired' },
  { status: 401, type: 'invalid' },
  { status: 401, type: 'invalid-signature' },
  { status: 503, type: 'sso-not-configured' },
  { status: 0, type: 'network-error' },
];

const events: SsoModelEvent[] = [
  { type: 'xstate.done.actor.authenticate', output: { token: SESSION } },
  ...ssoProblems.map((error) => ({ type: 'xstate.error.actor.authenticate' as const, error })),
  { type: 'xstate.done.actor.storeToken', output: undefined },
  { type: 'xstate.error.actor.storeToken', error: new Error('The browser did not store the session token') },
];

export const ssoModel = defineQaModel({
  name: 'sso',
  title: 'Inicio de sesión único (una dirección con ?xwikiid=…)',
  machine: ssoMachine,
  events,
  variants: [
    { name: 'with xwikiid', description: `una dirección con ?xwikiid=${SSO_TOKEN}`, input: { ssoToken: SSO_TOKEN } },
    { name: 'without xwikiid', description: 'una dirección sin xwikiid', input: { ssoToken: null } },
  ],
  // Every failure kind, hence every R-AUTH-8 single sign-on toast text, is shown at least once.
  extraFeatures: (snapshot) =>
    snapshot.matches('rejected')
      ? [`toast ${ssoMessage(snapshot.context.errorType ?? undefined)}`, `failure ${snapshot.context.errorType}`]
      : [],
  eventDescriptions: {
    'xstate.done.actor.authenticate': 'el servidor acepta el token de XWiki y da el token de sesión',
    'xstate.error.actor.authenticate': ({ error }) => `al enviar el token de XWiki, ${failureSentence(error)}`,
    'xstate.done.actor.storeToken': 'el navegador guarda el token de sesión',
    'xstate.error.actor.storeToken': 'el navegador no guarda el token de sesión',
  } satisfies EventDescriptions<SsoModelEvent>,
});
