import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startProduct, type RunningProduct } from './harness.ts';
import { cli, openSignedIn, registerThroughApi, type SignedIn } from './session.ts';

/**
 * One renderer: nothing a person can see and touch is replaced after it first appears. The page
 * holds the first card, its play link and the first <video> from the moment they are added to the
 * document, and a play started on that <video> at first sight must still be playing 10 s later.
 * The CPU is slowed 4× (as Lighthouse's phone), where a second mount of the page's tree shows most.
 */
let product: RunningProduct;
let browser: Browser;
let user: SignedIn;

const HOLD_MS = 10_000;
const PLAY_LINK = 'a[aria-label^="Reproducir "]';
const CARD = 'article:not([aria-busy="true"])';

beforeAll(async () => {
  product = await startProduct();
  await cli(product, ['demo', '--videos', '2'], 300_000);
  user = await registerThroughApi(product, 'eva.user');
  browser = await launchBrowser();
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

interface Held {
  /** The first card a person sees (not a placeholder in the loading style, which has nothing to touch). */
  card?: Element;
  link?: Element;
  video?: HTMLVideoElement;
  /** What happened to <main> elements, for a failure's message. */
  log: string[];
}
type HeldWindow = Window & { held: Held };

/**
 * Before any script of the page runs: keeps the first play link and the first <video> as they are
 * added, and starts the video playing (muted, as a browser allows without a gesture) right then.
 */
function holdFirstNodes({ playLink, card: CARD }: { playLink: string; card: string }): void {
  const held: Held = { log: [] };
  (window as unknown as HeldWindow).held = held;
  const start = performance.now();
  const note = (what: string, node: Element) => held.log.push(`${Math.round(performance.now() - start)} ms ${what} <${node.tagName.toLowerCase()} class="${node.className}">`);
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.removedNodes) if (node instanceof Element && (node.matches('main') || node.querySelector('main'))) note('removed', node);
      for (const node of record.addedNodes) if (node instanceof Element && (node.matches('main') || node.querySelector('main'))) note('added', node);
    }
    held.card ??= document.querySelector(CARD) ?? undefined;
    held.link ??= document.querySelector(playLink) ?? undefined;
    if (!held.video) {
      const video = document.querySelector('video');
      if (video) {
        held.video = video;
        note('first video in', video.closest('main') ?? video);
        // Muted, as a browser allows without a gesture; looping, as a demo video is shorter than the hold.
        video.muted = true;
        video.loop = true;
        void video.play().catch((error: unknown) => held.log.push(`play refused: ${String(error)}`));
      }
    }
  }).observe(document, { childList: true, subtree: true });
}

async function slowedPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES', timezoneId: 'Europe/Madrid' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(holdFirstNodes, { playLink: PLAY_LINK, card: CARD });
  return page;
}

describe('nodes a person can touch stay the same nodes (CPU 4× slower)', () => {
  it('the list: the first card\'s play link, and on the video\'s page opened from it the first <video>, which keeps playing', async () => {
    const page = await slowedPage();
    try {
      await openSignedIn(page, product, user, '/videos');
      await page.waitForFunction(() => (window as unknown as HeldWindow).held.link !== undefined, undefined, { timeout: 30_000 });
      expect(await page.evaluate(() => (window as unknown as HeldWindow).held.card !== undefined)).toBe(true);
      await page.waitForTimeout(HOLD_MS);
      const list = await page.evaluate(
        ({ playLink, card }) => {
          const { held } = window as unknown as HeldWindow;
          return {
            link: held.link!.isConnected && held.link === document.querySelector(playLink),
            card: held.card!.isConnected && held.card === document.querySelector(card),
            log: held.log,
          };
        },
        { playLink: PLAY_LINK, card: CARD },
      );
      expect(list, list.log.join('\n')).toMatchObject({ link: true, card: true });

      // The video's page, opened from the list with the held link itself: its first <video> is the
      // page's player (a card's preview, under a pointer, is the list's own and goes with it).
      await page.evaluate(() => {
        const { held } = window as unknown as HeldWindow;
        held.log.length = 0;
        delete held.video;
        (held.link as HTMLElement).click();
      });
      await page.waitForURL(/\/videos\/\d+/);
      await expectStillPlaying(page);
    } finally {
      await page.context().close();
    }
  }, 90_000);

  it("a video's page opened in a tab of its own: the first <video> stays and keeps playing", async () => {
    const page = await slowedPage();
    try {
      await openSignedIn(page, product, user, '/videos');
      const href = await page.locator(PLAY_LINK).first().getAttribute('href');
      await openSignedIn(page, product, user, href!);
      await expectStillPlaying(page);
    } finally {
      await page.context().close();
    }
  }, 90_000);
});

/** The first <video> appeared, and HOLD_MS later it is the page's player still, playing. */
async function expectStillPlaying(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as HeldWindow).held.video !== undefined, undefined, { timeout: 30_000 });
  await page.waitForTimeout(HOLD_MS);
  const watched = await page.evaluate(async () => {
    const { held } = window as unknown as HeldWindow;
    const video = held.video!;
    const before = video.currentTime;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return { connected: video.isConnected, same: video === document.querySelector('main video'), paused: video.paused, advancing: video.currentTime !== before, log: held.log };
  });
  expect(watched, watched.log.join('\n')).toEqual({ connected: true, same: true, paused: false, advancing: true, log: watched.log });
}
