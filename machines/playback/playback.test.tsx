import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPlaybackLogic } from '../../src/features/videos/video.actors.ts';
import { VideoPlayer } from '../../src/features/videos/video-player.tsx';
import * as posterWait from '../../src/features/videos/player/after-poster-shown.ts';
import { createQueryClient } from '../../src/lib/query-client.ts';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import { itCoversTheMachine, runPath, type Executors, type StateChecks } from '../../tests/utils/machine-model.ts';
import { MAX_RETRIES, playbackMachine, SAVE_INTERVAL_MS } from './playback.machine.ts';
import {
  DURATION,
  LEVEL_HEIGHTS,
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
/** How long a quality switch may go unconfirmed, shortened likewise. */
const SWITCH = 500;

/**
 * hls.js, replaced (jsdom has no Media Source Extensions): what the player hands it (the levels it
 * chooses) and what it tells the player (its levels, a fatal error, the level now playing).
 */
const hlsDouble = vi.hoisted(() => {
  type Listener = (event: string, data: unknown) => void;
  const state = { instances: [] as Array<InstanceType<typeof FakeHls>>, onCreate: () => {} };
  class FakeHls {
    static Events = { MANIFEST_PARSED: 'hlsManifestParsed', ERROR: 'hlsError', LEVEL_SWITCHED: 'hlsLevelSwitched' };
    static ErrorTypes = { NETWORK_ERROR: 'networkError', MEDIA_ERROR: 'mediaError' };
    config: Record<string, unknown>;
    /** Every level the player set, in order. */
    chosen: number[] = [];
    listeners = new Map<string, Listener[]>();
    constructor(config: Record<string, unknown>) {
      this.config = { ...config };
      state.instances.push(this);
      state.onCreate();
    }
    on(event: string, listener: Listener) {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    }
    emit(event: string, data: unknown) {
      for (const listener of this.listeners.get(event) ?? []) listener(event, data);
    }
    loadSource() {}
    attachMedia() {
      this.emit(FakeHls.Events.MANIFEST_PARSED, { levels: levelHeights.map((height) => ({ height })) });
    }
    destroy() {}
    get currentLevel() {
      return this.chosen.at(-1) ?? -1;
    }
    set currentLevel(level: number) {
      this.chosen.push(level);
    }
  }
  const levelHeights: number[] = [];
  return { state, FakeHls, levelHeights };
});
vi.mock('hls.js/light', () => ({ default: hlsDouble.FakeHls }));
hlsDouble.levelHeights.push(...LEVEL_HEIGHTS);
const hls = () => hlsDouble.state.instances.at(-1)!;
/**
 * Runs `cause` and lets the promises it starts settle, inside one act: the player's import of hls.js
 * (again after a reload, which then makes its instance), the menus' placement.
 */
const settling = (cause: () => void = () => {}) =>
  act(async () => {
    cause();
    await import('hls.js/light');
    for (let tick = 0; tick < 5; tick += 1) await Promise.resolve();
  });
const levelLabel = (level: number) => (level === -1 ? 'Automática' : `${LEVEL_HEIGHTS[level]}p`);

type Snapshot = PlaybackSnapshot;
type ModelEvent = PlaybackModelEvent;
// The model (one per saved position) is shared with `npm run qa`: playback.model.test-support.ts.
const { events } = playbackModel;
const variants = playbackModel.models.map(({ variant, paths }) => {
  const { posicion, startAt, resumes, adaptive = false } = playbackVariants.find((entry) => entry.name === variant!.name)!;
  return { name: variant!.name, posicion, startAt, resumes, adaptive, paths };
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
/** The quality the user last chose in 'Calidad' (-1: Automática). */
let chosenLevel: number;
/** The player streams through hls.js (the double), not the MP4. */
let adaptiveSource: boolean;

function renderPlayer(
  posicion: number | null,
  { defaultInterval = false, startAt, adaptive = false }: { defaultInterval?: boolean; startAt?: number; adaptive?: boolean } = {},
) {
  media = { currentTime: 0, duration: Number.NaN, ended: false, seeks: [], errorCode: 0, loads: 0 };
  chosenLevel = -1;
  adaptiveSource = adaptive;
  hlsDouble.state.instances = [];
  // Each hls.js after the first is a reload: a fresh media source, whose seeks start again.
  hlsDouble.state.onCreate = () => {
    if (hlsDouble.state.instances.length === 1) return;
    media.loads += 1;
    media.seeks = [];
  };
  // With Media Source Extensions the player picks hls.js for the HLS address.
  if (adaptive) vi.stubGlobal('MediaSource', class {});
  saves = [];
  serverPosition = posicion === null ? 0 : Math.floor(posicion);
  // An address's second is where the user is once the video loads (R-VID-28).
  userPosition = startAt ?? posicion ?? 0;
  // The app's machine; only the network is replaced: the saves are recorded.
  const logic = createPlaybackLogic(createQueryClient()).provide({
    delays: {
      ...(defaultInterval ? {} : { saveInterval: INTERVAL }),
      retryDelay: ({ context }) => retryDelay(context.attempts),
      stallTimeout: STALL,
      switchTimeout: SWITCH,
    },
    actions: { savePosition: (_, params) => void saves.push(params) },
  });
  const view = renderWithTheme(
    <VideoPlayer
      video={{
        id: VIDEO_ID,
        titulo: TITLE,
        urlVideo: '/api/media/asset-7/video.mp4',
        urlHls: adaptive ? '/api/media/asset-7/hls-master.m3u8' : null,
        urlThumbnail: '/thumb.jpg',
        posicion,
      }}
      logic={logic}
      startAt={startAt}
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
  // jsdom paints nothing, and these timers are fake: the wait for the poster's first frame (ADR 0140)
  // is the browser's; here hls.js is made as soon as the player asks for it. A spy, not vi.mock:
  // this project shares its modules between files (isolate: false), where a file's vi.mock may come late.
  vi.spyOn(posterWait, 'afterPosterShown').mockResolvedValue(undefined);
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The 'Calidad' button, whose name says the chosen quality (or the switch to it). */
const qualityButton = () => screen.getByRole('button', { name: /^Calidad: / });
/** The player's status line of the quality switch (the spinner's status has a name of its own). */
const qualityStatus = () => screen.getAllByRole('status').find((element) => !element.hasAttribute('aria-label'))!;

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
    if (adaptiveSource) {
      // hls.js reports its own fatal failures; the element's are ignored then.
      const { NETWORK_ERROR, MEDIA_ERROR } = hlsDouble.FakeHls.ErrorTypes;
      await expectSave(() => act(() => hls().emit(hlsDouble.FakeHls.Events.ERROR, { fatal: true, type: event.network ? NETWORK_ERROR : MEDIA_ERROR })), null);
      return;
    }
    // MEDIA_ERR_NETWORK (2) or MEDIA_ERR_DECODE (3).
    media.errorCode = event.network ? 2 : 3;
    await expectSave(() => void fireEvent(video(), new Event('error')), null);
  },
  retry: async () => {
    const loads = media.loads;
    await expectSave(() => settling(() => screen.getByRole('button', { name: 'Reintentar' }).click()), null);
    expect(media.loads).toBe(loads + 1);
  },
  'quality.choose': async ({ event, state }) => {
    // The user opens 'Calidad' and picks a height (or Automática); hls.js is told only when ready, and only of a change.
    const instance = hls();
    const told = instance.chosen.length;
    const unchanged = event.level === chosenLevel;
    await settling(() => qualityButton().click());
    const menu = screen.getByRole('menu');
    await settling(() => within(menu).getByRole('menuitem', { name: new RegExp(`^${levelLabel(event.level)}`) }).click());
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    chosenLevel = event.level;
    expect(instance.chosen.slice(told)).toEqual(unchanged || !state.matches('ready') ? [] : [event.level]);
  },
  'media.levelSwitched': async ({ event }) => {
    await expectSave(() => act(() => hls().emit(hlsDouble.FakeHls.Events.LEVEL_SWITCHED, { level: event.level })), null);
  },
  'xstate.after.switchTimeout': async () => {
    // Still switching a moment before; then 'Calidad' shows the chosen height, as if it had arrived.
    await expectSave(() => advance(SWITCH - 1), null);
    expect(qualityStatus()).toHaveTextContent(/^Cambiando a/);
    await expectSave(() => advance(1), null);
  },
  'xstate.after.retryDelay': async ({ state }) => {
    // 1×, 2×, 4× the first delay: nothing a moment before, then the media loads again.
    const loads = media.loads;
    const delay = retryDelay(state.context.attempts);
    await expectSave(() => settling(() => vi.advanceTimersByTime(delay - 1)), null);
    expect(media.loads).toBe(loads);
    await expectSave(() => settling(() => vi.advanceTimersByTime(1)), null);
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
    '#playback.ready.media.paused': (snapshot) => {
      expect(media.seeks.length).toBeLessThanOrEqual(1);
      expect(snapshot.context.savedPosition ?? 0).toBe(serverPosition);
    },
    '#playback.ready.media.playing': (snapshot) => {
      expect(snapshot.context.savedPosition ?? 0).toBe(serverPosition);
    },
    '#playback.ready.media.buffering': () => {
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
    '#playback.ready.media.ended': (snapshot) => {
      // 0 was saved at the end (the next opening starts from the beginning), unless the user moved since.
      expect(saves).toContainEqual({ id: VIDEO_ID, seconds: 0, leaving: false });
      expect(snapshot.context.savedPosition ?? 0).toBe(serverPosition);
    },
    '#playback.ready.quality.settled': () => {
      // R-VID-32: 'Calidad' (hls.js only) names the chosen quality; nothing says it is changing.
      if (!adaptiveSource) {
        expect(screen.queryByRole('button', { name: /^Calidad/ })).not.toBeInTheDocument();
        return;
      }
      expect(qualityButton()).toHaveAccessibleName(`Calidad: ${levelLabel(chosenLevel)}`);
      expect(qualityStatus()).toHaveTextContent('');
    },
    '#playback.ready.quality.switching': (snapshot) => {
      // The chosen height is on its way: said in the status line and in the button's name, and hls.js
      // (a new one after a reload) was told.
      const label = levelLabel(chosenLevel);
      expect(qualityStatus()).toHaveTextContent(`Cambiando a ${label}`);
      expect(qualityButton()).toHaveAccessibleName(`Calidad: Cambiando a ${label}`);
      expect(hls().currentLevel).toBe(snapshot.context.quality);
    },
  } satisfies StateChecks<Snapshot>;
}

for (const { name, posicion, startAt, resumes, adaptive, paths } of variants) {
  describe(`playback model (${name})`, () => {
    const states = statesFor(resumes ? (startAt ?? posicion) : null);
    for (const { name: pathName, path } of paths) {
      it(pathName, async () => {
        renderPlayer(posicion, { startAt, adaptive });
        if (adaptive) await settling();
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
    expect(resumed).toEqual([true, false, false, true, false]);
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

describe('playback: the quality chosen in Calidad', () => {
  const SWITCHED = hlsDouble.FakeHls.Events.LEVEL_SWITCHED;
  async function openAdaptive() {
    renderPlayer(null, { adaptive: true });
    await settling();
    media.duration = DURATION;
    fireEvent(video(), new Event('loadedmetadata'));
  }
  async function choose(label: string) {
    await settling(() => qualityButton().click());
    await settling(() => within(screen.getByRole('menu')).getByRole('menuitem', { name: new RegExp(`^${label}`) }).click());
  }

  it('marks the chosen height as changing in the open menu until hls.js plays it (R-VID-32)', async () => {
    await openAdaptive();
    await choose('480p');
    await settling(() => qualityButton().click());
    const item = within(screen.getByRole('menu')).getByRole('menuitem', { name: /^480p/ });
    expect(item).toHaveAttribute('aria-current', 'true');
    expect(item).toHaveTextContent('480pCambiando…');
    act(() => hls().emit(SWITCHED, { level: 2 }));
    expect(within(screen.getByRole('menu')).getByRole('menuitem', { name: '480p' })).toHaveAttribute('aria-current', 'true');
    expect(qualityStatus()).toHaveTextContent('');
  });

  it('settles at once on the height hls.js already plays, and on Automática (R-VID-32)', async () => {
    await openAdaptive();
    act(() => hls().emit(SWITCHED, { level: 0 }));
    await choose('240p');
    expect(hls().chosen).toEqual([0]);
    expect(qualityButton()).toHaveAccessibleName('Calidad: 240p');
    expect(qualityStatus()).toHaveTextContent('');
    await choose('Automática');
    expect(hls().chosen).toEqual([0, -1]);
    expect(qualityButton()).toHaveAccessibleName('Calidad: Automática');
    expect(qualityStatus()).toHaveTextContent('');
  });

  it("keeps the chosen height through a failure during the switch, and asks the new hls.js for it after 'Reintentar' (R-VID-32)", async () => {
    await openAdaptive();
    await choose('480p');
    expect(qualityStatus()).toHaveTextContent('Cambiando a 480p');
    const { MEDIA_ERROR } = hlsDouble.FakeHls.ErrorTypes;
    act(() => hls().emit(hlsDouble.FakeHls.Events.ERROR, { fatal: true, type: MEDIA_ERROR }));
    expect(screen.getByRole('alert')).toHaveTextContent('No se ha podido reproducir el video');
    expect(qualityStatus()).toHaveTextContent('');
    expect(qualityButton()).toHaveAccessibleName('Calidad: 480p');
    await settling(() => screen.getByRole('button', { name: 'Reintentar' }).click());
    expect(hlsDouble.state.instances).toHaveLength(2);
    expect(hls().chosen).toEqual([]);
    fireEvent(video(), new Event('loadedmetadata'));
    expect(hls().chosen).toEqual([2]);
    expect(qualityStatus()).toHaveTextContent('Cambiando a 480p');
    act(() => hls().emit(SWITCHED, { level: 2 }));
    expect(qualityButton()).toHaveAccessibleName('Calidad: 480p');
    expect(qualityStatus()).toHaveTextContent('');
  });
});
