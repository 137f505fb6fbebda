import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { SsoGate } from '../../src/features/auth/sso-gate.tsx';
import { appSsoMachine } from '../../src/features/auth/sso.actors.ts';
import { ToastViewport } from '../../src/components/toast-viewport.tsx';
import { createToastStore, type ToastStore } from '../../src/lib/toasts.ts';
import { getToken, storeToken } from '../../src/lib/auth-token.ts';
import { authMessages, pageMessages, ssoMessage } from '../../src/lib/messages.ts';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import {
  coveredFeatures,
  createActorDoubles,
  itCoversTheMachine,
  runPath,
  type ActorDoubles,
  type Executors,
  type StateChecks,
} from '../../tests/utils/machine-model.ts';
import type { StoreTokenInput } from '../shared/session-token.types.ts';
import { ssoMachine } from './sso.machine.ts';
import { SESSION, SSO_TOKEN, ssoModel, type SsoModelEvent, type SsoSnapshot } from './sso.model.test-support.ts';

const OLD_TOKEN = 'header.eyJ1c2VyIjoib2xkIiwicm9sZSI6InVzZXIifQ.old';
const CONTENT = 'Contenido protegido';

type Snapshot = SsoSnapshot;
type ModelEvent = SsoModelEvent;
// The model (one per address) is shared with `npm run qa`: sso.model.test-support.ts.
const { events } = ssoModel;
const variants = ssoModel.models.map(({ variant, paths }) => ({ name: variant!.name, ssoToken: variant!.input.ssoToken, paths }));

let doubles: ActorDoubles;
let onSsoTokenUsed: Mock<() => void>;
let onSsoFailure: Mock<(errorType: string | null) => void>;
let toasts: ToastStore;

function renderGate(ssoToken: string | null) {
  doubles = createActorDoubles();
  onSsoTokenUsed = vi.fn();
  // What the authenticated layout (src/routes/_auth.tsx) does with the failure: the persistent toast.
  toasts = createToastStore();
  onSsoFailure = vi.fn((errorType) => void toasts.show({ kind: 'error', message: ssoMessage(errorType ?? undefined), persistent: true }));
  // The app's machine (its token clearing is real); only the network and storage are doubled.
  const logic = appSsoMachine.provide({
    actors: {
      authenticate: doubles.promise('authenticate'),
      storeToken: doubles.promise<void, StoreTokenInput>('storeToken', ({ token }) => void storeToken(token)),
    },
  });
  renderWithTheme(
    <>
      <SsoGate logic={logic} ssoToken={ssoToken} onSsoTokenUsed={onSsoTokenUsed} onSsoFailure={onSsoFailure}>
        <p>{CONTENT}</p>
      </SsoGate>
      <ToastViewport store={toasts} />
    </>,
  );
}

beforeEach(() => {
  // A token left by an earlier session: success replaces it, failure clears it.
  storeToken(OLD_TOKEN);
});

const executors = {
  'xstate.done.actor.authenticate': async ({ event }) => doubles.resolve('authenticate', event.output),
  'xstate.error.actor.authenticate': async ({ event }) => doubles.reject('authenticate', event.error),
  'xstate.done.actor.storeToken': async () => doubles.resolve('storeToken'),
  'xstate.error.actor.storeToken': async ({ event }) => doubles.reject('storeToken', event.error),
} satisfies Executors<Snapshot, ModelEvent>;

function expectSplash() {
  expect(screen.getByRole('status', { name: authMessages.loading })).toBeInTheDocument();
  expect(screen.getByRole('img', { name: pageMessages.appTitle })).toBeInTheDocument();
  expect(screen.queryByText(CONTENT)).not.toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(onSsoTokenUsed).not.toHaveBeenCalled();
  expect(onSsoFailure).not.toHaveBeenCalled();
}

const states = {
  '#sso.authenticating': () => {
    expectSplash();
    expect(doubles.inputs('authenticate')).toEqual([{ taoToken: SSO_TOKEN }]);
  },
  '#sso.storingToken': () => {
    expectSplash();
    expect(doubles.inputs('storeToken')).toEqual([{ token: SESSION }]);
  },
  '#sso.ready': (snapshot) => {
    expect(screen.getByText(CONTENT)).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: authMessages.loading })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onSsoFailure).not.toHaveBeenCalled();
    if (snapshot.context.ssoToken) {
      expect(getToken()).toBe(SESSION);
      expect(onSsoTokenUsed).toHaveBeenCalledTimes(1);
    } else {
      expect(getToken()).toBe(OLD_TOKEN);
      expect(onSsoTokenUsed).not.toHaveBeenCalled();
      expect(doubles.inputs('authenticate')).toEqual([]);
    }
  },
  '#sso.rejected': (snapshot) => {
    // The area renders as without a token (the session shows 'Sesión expirada').
    expect(screen.getByText(CONTENT)).toBeInTheDocument();
    expect(getToken()).toBeNull();
    expect(onSsoTokenUsed).not.toHaveBeenCalled();
    // The machine emitted its failure once, with the problem type; the host showed the toast.
    expect(onSsoFailure.mock.calls).toEqual([[snapshot.context.errorType]]);
    const toast = screen.getByRole('alert');
    expect(toast).toHaveTextContent(ssoMessage(snapshot.context.errorType ?? undefined));
    expect(toasts.getSnapshot().map((entry) => entry.actor.getSnapshot().context)).toEqual([
      { kind: 'error', message: ssoMessage(snapshot.context.errorType ?? undefined), persistent: true },
    ]);
  },
} satisfies StateChecks<Snapshot>;

for (const { name, ssoToken, paths } of variants) {
  describe(`single sign-on gate, ${name}`, () => {
    for (const { name: pathName, path } of paths) {
      it(pathName, async () => {
        renderGate(ssoToken);
        await runPath(path, states, executors);
      });
    }
  });
}

describe('single sign-on model coverage', () => {
  const paths = variants.flatMap((variant) => variant.paths);
  const covered = coveredFeatures(paths);

  itCoversTheMachine(ssoMachine, paths, { events, states, executors });
  it('shows every R-AUTH-8 single sign-on toast text', () => {
    for (const text of ['El token ha expirado', 'El token es invalido', 'Ha ocurrido un error']) {
      expect(covered).toContain(`toast ${text}`);
    }
  });
});

describe('single sign-on failure toast', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stays on screen (persistent) long after a normal toast would close', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderGate(SSO_TOKEN);
    await doubles.reject('authenticate', { status: 401, type: 'tao-token expired' });
    expect(screen.getByRole('alert')).toHaveTextContent('El token ha expirado');
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByRole('alert')).toHaveTextContent('El token ha expirado');
  });
});
