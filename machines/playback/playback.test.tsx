import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPlaybackLogic } from '../../src/features/videos/video.actors.ts';
import { VideoPlayer } from '../../src/features/videos/video-player.tsx';
import { createQueryClient } from '../../src/lib/query-client.ts';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import { itCoversTheMachine, runPath, type Executors, type StateChecks } from '../../tests/utils/machine-model.ts';
import { MAX_RETRIES, playbackMachine, SAVE_INTERVAL_MS } from './playback.machine.ts';
import {
  DURATION,
  playbackModel,
  variants as playbackVariants,
  VIDEO_ID,
  type PlaybackModelEvent,
  type PlaybackSnapshot,
} from './playback.model.test-support.ts';
import type { SavePositionParams } from './playback.types.ts';

const TITLE = 'Reunión anual';
/** The saving interval, shortened as the machines/ convention asks; time is driven by fake timers. */
const INTERVAL = 1000;
/** The first retry's delay, shortened likewise; each next one doubles. */
const RETRY = 100;
const retryDelay = (attempts: number) => RETRY * 2 ** Math.max(0, attempts - 1);
/** How long playing without data may last, shortened likewise. */
const STALL = 2000;

type Snapshot = PlaybackSnapshot;
type ModelEvent = PlaybackModelEvent;
// The model (one per saved position) is shared with `npm run qa`: playback.model.test-support.ts.
const { events } = playbackModel;
const variants = playbackModel.models.map(({ variant, paths }) => {
  const { posicion, resumes } = playbackVariants.find((entry) => entry.name === variant!.name)!;
  return { name: variant!.name, posicion, resumes, paths };
});

// ---- the host: the real player with its <video> element stubbed (jsdom plays nothing) ----

/** What the test's media element holds. */
let media: { currentTime: number; duration: number; ended: boolean; seeks: number[]; errorCode: number; loads: number };
/** The saves the app would send (the machine's `savePosition` action). */
let saves: SavePositionParams[];
/** Whole seconds the server holds for the user, as far as the test knows. */
let serverPosition: number;
/** Where the user is in the video, as the test set it (the position that must end up saved). */
let userPosition: number;

function renderPlayer(posicion: number | null, { defaultInterval = false } = {}) {
  media = { currentTime: 0, duration: Number.NaN, ended: false, seeks: [], errorCode: 0, loads: 0 };
  saves = [];
  serverPosition = posicion === null ? 0 : Math.floor(posicion);
  userPosition = posicion ?? 0;
  // The app's machine; only the network is replaced: the saves are recorded.
  const logic = createPlaybackLogic(createQueryClient()).provide({
    delays: { ...(defaultInterval ? {} : { saveInterval: INTERVAL }), retryDelay: ({ context }) => retryDelay(context.attempts), stallTimeout: STALL },
    actions: { savePosition: (_, params) => void saves.push(params) },
  });
  const view = renderWithTheme(
    <VideoPlayer
      video={{ id: VIDEO_ID, titulo: TITLE, urlVideo: '/api/media/asset-7/video.mp4', urlThumbnail: '/thumb.jpg', posicion }}
      logic={logic}
    />,
  );
  const element = screen.getByLabelText(TITLE) as HTMLVideoElement;
  Object.defineProperties(element, {
    currentTime: {
      configurable: true,
      get: () => media.currentTime,
      set: (value: number) => {
        media.currentTime = value;
        media.seeks.push(value);
      },
    },
    duration: { configurable: true, get: () => media.duration },
    ended: { configurable: true, get: () => media.ended },
    error: { configurable: true, get: () => (media.errorCode ? { code: media.errorCode } : null) },
    // A reload is a fresh media element as far as positions go: its seeks start again.
    load: {
      configurable: true,
      value: () => {
        media.loads += 1;
        media.seeks = [];
        media.errorCode = 0;
      },
    },
  });
  return { ...view, element };
}

const video = () => screen.getByLabelText(TITLE) as HTMLVideoElement;
const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });
const moved = () => Math.floor(userPosition) !== serverPosition;

/** Runs `cause` and checks the one save it must send (or none). */
async function expectSave(cause: () => void | Promise<void>, save: Omit<SavePositionParams, 'id'> | null) {
  const count = saves.length;
  await cause();
  if (save === null) {
    expect(saves.slice(count)).toEqual([]);
    return;
  }
  expect(saves.slice(count)).toEqual([{ id: VIDEO_ID, ...save }]);
  serverPosition = save.seconds;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const executors = {
  'media.loaded': async ({ event }) => {
    media.duration = event.duration;
    await expectSave(() => void fireEvent(video(), new Event('loadedmetadata')), null);
  },
  'media.seeked': async () => {
    await expectSave(() => void fireEvent(video(), new Event('seeked')), null);
  },
  'media.play': async () => {
    await expectSave(() => void fireEvent(video(), new Event('playing')), null);
  },
  'media.time': async ({ event }) => {
    media.currentTime = event.position;
    userPosition = event.position;
    await expectSave(() => void fireEvent(video(), new Event('timeupdate')), null);
  },
  'media.pause': async ({ event }) => {
    media.currentTime = event.position;
    userPosition = event.position;
    // A pause always saves where the user stopped.
    await expectSave(() => void fireEvent(video(), new Event('pause')), { seconds: Math.floor(event.position), leaving: false });
  },
  'media.ended': async () => {
    // As a browser does at the end: the media pauses (ended already true), then ends; 0 is saved once.
    media.currentTime = DURATION;
    media.ended = true;
    await expectSave(() => {
      fireEvent(video(), new Event('pause'));
      fireEvent(video(), new Event('ended'));
    }, { seconds: 0, leaving: false });
    media.ended = false;
    userPosition = 0;
  },
  'page.leave': async () => {
    // The tab or window goes away: the moved position goes with a request that outlives the page.
    await expectSave(() => void window.dispatchEvent(new Event('pagehide')), { seconds: Math.floor(userPosition), leaving: true });
  },
  'media.waiting': async () => {
    await expectSave(() => void fireEvent(video(), new Event('waiting')), null);
  },
  'media.error': async ({ event }) => {
    // MEDIA_ERR_NETWORK (2) or MEDIA_ERR_DECODE (3).
    media.errorCode = event.network ? 2 : 3;
    await expectSave(() => void fireEvent(video(), new Event('error')), null);
  },
  retry: async () => {
    const loads = media.loads;
    await expectSave(() => void fireEvent.click(screen.getByRole('button', { name: 'Reintentar' })), null);
    expect(media.loads).toBe(loads + 1);
  },
  'xstate.after.retryDelay': async ({ state }) => {
    // 1×, 2×, 4× the first delay: nothing a moment before, then the media loads again.
    const loads = media.loads;
    const delay = retryDelay(state.context.attempts);
    await expectSave(() => advance(delay - 1), null);
    expect(media.loads).toBe(loads);
    await expectSave(() => advance(1), null);
    expect(media.loads).toBe(loads + 1);
  },
  'xstate.after.stallTimeout': async () => {
    // Still waiting a moment before; then it is a network failure: the spinner stays, no reload yet.
    const loads = media.loads;
    await expectSave(() => advance(STALL - 1), null);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await expectSave(() => advance(1), null);
    expect(media.loads).toBe(loads);
    expect(screen.getByRole('status', { name: 'Cargando…' })).toBeInTheDocument();
  },
  'xstate.after.saveInterval': async () => {
    // Nothing a moment before the interval; then the position, if it moved since the last save.
    await expectSave(() => advance(INTERVAL - 1), null);
    await expectSave(() => advance(1), moved() ? { seconds: Math.floor(userPosition), leaving: false } : null);
  },
} satisfies Executors<Snapshot, ModelEvent>;

function statesFor(resumeAt: number | null) {
  return {
    '#playback.loading': () => {
      expect(media.seeks).toEqual([]);
      expect(saves).toEqual([]);
    },
    '#playback.resuming': () => {
      // Sent to the saved position once the duration is known; nothing saved on the way.
      expect(media.seeks).toEqual([resumeAt]);
      expect(video().currentTime).toBe(resumeAt);
      expect(saves).toEqual([]);
    },
    '#playback.ready.paused': (snapshot) => {
      expect(media.seeks.length).toBeLessThanOrEqual(1);
      expect(snapshot.context.savedPosition ?? 0).toBe(serverPosition);
    },
    '#playback.ready.playing': (snapshot) => {
      expect(snapshot.context.savedPosition ?? 0).toBe(serverPosition);
    },
    '#playback.ready.buffering': () => {
      expect(screen.getByRole('status', { name: 'Cargando…' })).toBeInTheDocument();
    },
    '#playback.retrying': (snapshot) => {
      expect(screen.getByRole('status', { name: 'Cargando…' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(snapshot.context.attempts).toBeLessThanOrEqual(MAX_RETRIES);
    },
    '#playback.reloading': () => {
      expect(media.loads).toBeGreaterThan(0);
      expect(screen.getByRole('status', { name: 'Cargando…' })).toBeInTheDocument();
    },
    '#playback.failed': () => {
      expect(screen.getByRole('alert')).toHaveTextContent('No se ha podido reproducir el video');
      expect(screen.getByRole('button', { name: 'Reintentar' })).toBeInTheDocument();
    },
    '#playback.ready.ended': (snapshot) => {
      // 0 was saved at the end (the next opening starts from the beginning), unless the user moved since.
      expect(saves).toContainEqual({ id: VIDEO_ID, seconds: 0, leaving: false });
      expect(snapshot.context.savedPosition ?? 0).toBe(serverPosition);
    },
  } satisfies StateChecks<Snapshot>;
}

for (const { name, posicion, resumes, paths } of variants) {
  describe(`playback model (${name})`, () => {
    const states = statesFor(resumes ? posicion : null);
    for (const { name: pathName, path } of paths) {
      it(pathName, async () => {
        renderPlayer(posicion);
        await runPath(path, states, executors);
        // Never sent anywhere else than where the test put it (a reload goes back to where the user was).
        if (!resumes && media.loads === 0) expect(media.seeks).toEqual([]);
      });
    }
  });
}

describe('playback model coverage', () => {
  itCoversTheMachine(
    playbackMachine,
    variants.flatMap((variant) => variant.paths),
    { events, states: statesFor(120), executors },
  );

  it('resumes only a saved position above 0 and before the last seconds', () => {
    const resumed = variants.map(({ paths: variantPaths }) =>
      variantPaths.some(({ path }) => path.steps.some((step) => step.state.matches('resuming'))),
    );
    expect(resumed).toEqual([true, false, false]);
  });
});

describe('playback: leaving the page', () => {
  it('saves the moved position when the player goes away (unmount), as a request that outlives the page', () => {
    const { unmount } = renderPlayer(null);
    media.duration = DURATION;
    fireEvent(video(), new Event('loadedmetadata'));
    fireEvent(video(), new Event('playing'));
    media.currentTime = 42.7;
    fireEvent(video(), new Event('timeupdate'));
    expect(saves).toEqual([]);
    unmount();
    expect(saves).toEqual([{ id: VIDEO_ID, seconds: 42, leaving: true }]);
  });

  it('saves when the page is hidden, and goes on saving when it is shown again', () => {
    renderPlayer(null);
    media.duration = DURATION;
    fireEvent(video(), new Event('loadedmetadata'));
    fireEvent(video(), new Event('playing'));
    media.currentTime = 10.2;
    fireEvent(video(), new Event('timeupdate'));
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(saves).toEqual([{ id: VIDEO_ID, seconds: 10, leaving: true }]);
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    media.currentTime = 20.5;
    fireEvent(video(), new Event('timeupdate'));
    advance(INTERVAL);
    expect(saves.at(-1)).toEqual({ id: VIDEO_ID, seconds: 20, leaving: false });
    visibility.mockRestore();
  });

  it('saves nothing when nothing moved (a React development double mount leaves no trace)', () => {
    const { unmount } = renderPlayer(120);
    media.duration = DURATION;
    fireEvent(video(), new Event('loadedmetadata'));
    fireEvent(video(), new Event('seeked'));
    unmount();
    expect(saves).toEqual([]);
  });
});

describe('playback with the default interval', () => {
  it(`saves every ${SAVE_INTERVAL_MS / 1000} s while playing`, () => {
    renderPlayer(null, { defaultInterval: true });
    media.duration = DURATION;
    fireEvent(video(), new Event('loadedmetadata'));
    fireEvent(video(), new Event('playing'));
    media.currentTime = 3.4;
    fireEvent(video(), new Event('timeupdate'));
    advance(SAVE_INTERVAL_MS - 1);
    expect(saves).toEqual([]);
    advance(1);
    expect(saves).toEqual([{ id: VIDEO_ID, seconds: 3, leaving: false }]);
    media.currentTime = 8.1;
    fireEvent(video(), new Event('timeupdate'));
    advance(SAVE_INTERVAL_MS);
    expect(saves.at(-1)).toEqual({ id: VIDEO_ID, seconds: 8, leaving: false });
  });
});
