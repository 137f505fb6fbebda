import { useLayoutEffect } from 'react';
import { screen } from '@testing-library/react';
import { createActor } from 'xstate';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sessionToken } from '../../../tests/utils/msw.ts';
import { renderInRouter } from '../../../tests/utils/render-in-router.tsx';
import { clearToken, storeToken } from '../../lib/auth-token.ts';
import { appSessionMachine } from './session-actor.ts';
import { SessionArea } from './session-area.tsx';

describe('SessionArea', () => {
  it('mounts the header and the page in its first render, before the session is told it is entered', async () => {
    // The page in the app's first render (React renders it in slices), not in a second, synchronous
    // render once 'session.enter' has been sent (docs/decisions/0063-first-render-in-slices.md).
    storeToken(sessionToken({ user: 'ana' }));
    onTestFinished(() => clearToken());
    const session = createActor(appSessionMachine).start();
    onTestFinished(() => {
      session.stop();
    });
    const statesAtPageMount: string[] = [];
    function Page() {
      // Layout effects run in the commit that mounts the page, before the area's own effect.
      useLayoutEffect(() => {
        statesAtPageMount.push(JSON.stringify(session.getSnapshot().value));
      }, []);
      return <h1>Videos</h1>;
    }
    await renderInRouter(() => (
      <SessionArea session={session}>
        <Page />
      </SessionArea>
    ));
    expect(await screen.findByRole('heading', { name: 'Videos' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /ana/i })).toBeInTheDocument();
    expect(statesAtPageMount[0]).toBe('"outside"');
    // …and the area still enters the session (idle timer, 'Sesión expirada' without a token).
    expect(session.getSnapshot().matches({ inside: 'active' })).toBe(true);
  });

  it('shows neither the header nor the page once the token is gone (logout)', async () => {
    storeToken(sessionToken({ user: 'ana' }));
    onTestFinished(() => clearToken());
    const session = createActor(
      appSessionMachine.provide({ actions: { endSession: () => {}, clearToken: () => clearToken(), goToLogin: () => {} } }),
    ).start();
    onTestFinished(() => {
      session.stop();
    });
    await renderInRouter(() => (
      <SessionArea session={session}>
        <h1>Videos</h1>
      </SessionArea>
    ));
    expect(await screen.findByRole('heading', { name: 'Videos' })).toBeInTheDocument();
    session.send({ type: 'session.logout' });
    await expect.poll(() => screen.queryByRole('heading', { name: 'Videos' })).toBeNull();
    expect(screen.queryByRole('button', { name: /ana/i })).toBeNull();
  });
});
