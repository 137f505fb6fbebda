/**
 * The session's QA paths in Chromium, each with an account of its own. Entering is opening /videos
 * with or without the account's session stored; leaving is the browser's Back to '/'. An expired
 * session is real: the administrator changes the account's role (which ends its sessions) and the
 * next read (the 'Favoritos' tab) is refused with 401. A failed read is a 500 page.route answers
 * to every list read, retried by the app until it gives up. The hour without activity passes on the
 * browser's clock (Playwright's clock, fast-forwarded).
 */
import type { Page } from 'playwright-core';
import type { SessionModelEvent } from '../../../machines/session/session.model.test-support.ts';
import { appLabels } from '../../../src/components/app-labels.ts';
import { authMessages, dialogMessages } from '../../../src/lib/messages.ts';
import type { SignedIn } from '../../e2e/session.ts';
import { endSessions, enrolledAccount, type Account } from './accounts.ts';
import { enabled, field, gone, visible, WAIT } from './auth-pages.ts';
import type { BrowserPlan } from './plan.ts';
import { administrator } from './world.ts';

interface SessionData {
  admin: SignedIn;
}

interface SessionLocal {
  account: Account & { token: string };
}

const TIMED: ReadonlyArray<SessionModelEvent['type']> = ['session.activity', 'xstate.after.idleTimeout', 'session.load-error', 'session.reload'];

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });
const userMenu = (page: Page) => page.getByRole('button', { name: new RegExp(`\\(${appLabels.userMenu}\\)`) });

/** A read of the video list, as a person causes it: the 'Favoritos' tab. */
async function readVideos(page: Page) {
  await page.getByRole('tab', { name: 'Favoritos' }).or(page.getByRole('button', { name: 'Favoritos', exact: true })).first().click();
}

/** Moves the browser's clock on, second by second, until the dialog shows (the app's read retries back off). */
async function untilDialog(page: Page, name: string) {
  for (let second = 0; second < 30; second += 1) {
    if (await dialog(page, name).isVisible()) return;
    await page.clock.fastForward(1000);
    await page.waitForTimeout(100);
  }
  await visible(dialog(page, name));
}

export const sessionBrowserPlan: BrowserPlan<SessionModelEvent, SessionData, SessionLocal> = {
  machine: 'session',

  prepare: async (world) => ({ admin: await administrator(world.instance) }),

  async open({ page, world, path }) {
    const account = await enrolledAccount(world.instance, world.data.admin, 'session');
    if (path.path.steps.some((step) => TIMED.includes(step.event.type as SessionModelEvent['type']))) await page.clock.install();
    await page.goto('/');
    return { account };
  },

  gates: {},

  jsdomOnlyEvent: (event, before) =>
    event.type === 'session.expired' && before.matches({ inside: 'loadError' })
      ? "con 'Error obteniendo datos' abierto la página no hace ninguna lectura que una persona pueda provocar"
      : null,

  production: (event) => {
    if (event.type === 'session.activity' || event.type === 'xstate.after.idleTimeout') return 'time';
    if (event.type === 'session.load-error') return 'injected';
    return 'real';
  },

  executors: {
    'session.enter': async ({ page, event, local }) => {
      await page.evaluate((token) => {
        if (token) window.localStorage.setItem('token', token);
        else window.localStorage.removeItem('token');
      }, event.withToken ? local.account.token : null);
      await page.goto('/videos');
    },
    'session.leave': async ({ page }) => {
      await page.goBack();
    },
    'session.activity': async ({ page }) => {
      // 40 minutes, a move of the mouse, 40 minutes more: without the move the hour would have passed.
      await page.clock.fastForward('40:00');
      await page.mouse.move(200, 200);
      await page.mouse.move(400, 300);
      await page.clock.fastForward('40:00');
    },
    'session.expired': async ({ page, world, local }) => {
      await endSessions(world.instance, world.data.admin, local.account);
      await readVideos(page);
    },
    'session.load-error': async ({ page }) => {
      await page.route(
        (url) => url.pathname === '/api/videos',
        (route) =>
          route.fulfill({
            status: 500,
            contentType: 'application/problem+json',
            body: JSON.stringify({ type: 'internal-server-error', title: 'internal-server-error', status: 500 }),
          }),
      );
      await readVideos(page);
      await untilDialog(page, dialogMessages.loadErrorTitle);
    },
    'session.sign-in': async ({ page }) => dialog(page, dialogMessages.sessionExpiredTitle).getByRole('button', { name: dialogMessages.signIn }).click(),
    'session.reload': async ({ page }) => {
      // The page loads again; the list's read fails again, and after its retries the dialog is back.
      await Promise.all([page.waitForEvent('load'), dialog(page, dialogMessages.loadErrorTitle).getByRole('button', { name: dialogMessages.reload }).click()]);
      await untilDialog(page, dialogMessages.loadErrorTitle);
    },
    'session.logout': async ({ page }) => {
      await userMenu(page).click();
      await page.getByRole('menuitem', { name: authMessages.logout }).click();
    },
    'xstate.after.idleTimeout': async ({ page }) => {
      await page.clock.fastForward('01:00:01');
    },
  },

  states: {
    '#session.outside': async ({ page }) => {
      await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/register', { timeout: WAIT });
      await visible(field(page, authMessages.user));
      await gone(page.getByRole('dialog'));
    },
    '#session.inside.active.counting': async ({ page }) => {
      await visible(userMenu(page));
      await gone(page.getByRole('dialog'));
    },
    '#session.inside.expired': async ({ page }) => {
      await enabled(dialog(page, dialogMessages.sessionExpiredTitle).getByRole('button', { name: dialogMessages.signIn }));
      await gone(dialog(page, dialogMessages.loadErrorTitle));
    },
    '#session.inside.loadError': async ({ page }) => {
      await enabled(dialog(page, dialogMessages.loadErrorTitle).getByRole('button', { name: dialogMessages.reload }));
      await gone(dialog(page, dialogMessages.sessionExpiredTitle));
    },
    '#session.timedOut': async ({ page }) => {
      // The token is removed and the page reloads: without a session, /videos says so.
      await visible(dialog(page, dialogMessages.sessionExpiredTitle));
      const token = await page.evaluate(() => window.localStorage.getItem('token'));
      if (token !== null) throw new Error('The session token is still stored');
    },
  },
};
