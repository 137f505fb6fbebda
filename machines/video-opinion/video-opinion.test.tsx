import { screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ToastViewport } from '../../src/components/toast-viewport.tsx';
import { createVideoOpinionLogic } from '../../src/features/videos/video.actors.ts';
import { VideoOpinionControls } from '../../src/features/videos/video-opinion-controls.tsx';
import { createQueryClient } from '../../src/lib/query-client.ts';
import { createToastStore } from '../../src/lib/toasts.ts';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import {
  createActorDoubles,
  itCoversTheMachine,
  runPath,
  type ActorDoubles,
  type Executors,
  type StateChecks,
} from '../../tests/utils/machine-model.ts';
import { toastMachine } from '../toast/toast.machine.ts';
import { videoOpinionMachine } from './video-opinion.machine.ts';
import {
  answer,
  SERVER_ERROR,
  VIDEO,
  videoOpinionModel,
  type VideoOpinionModelEvent,
  type VideoOpinionSnapshot,
} from './video-opinion.model.test-support.ts';
import type { RateVideoInput, SetFavoriteInput, Video } from './video-opinion.types.ts';

type Snapshot = VideoOpinionSnapshot;
type ModelEvent = VideoOpinionModelEvent;
// The model is shared with `npm run qa`: video-opinion.model.test-support.ts.
const { events, paths } = videoOpinionModel;
const { model } = videoOpinionModel.models[0]!;

/** The R-VID-2 texts, written out: what the user must read after each outcome. */
function expectedToast(change: 'rating' | 'favorite', value: number | boolean, outcome: 'saved' | 'failed') {
  if (change === 'rating') {
    if (outcome === 'failed') return { kind: 'error', message: 'Error al guardar la puntuación' };
    return { kind: 'success', message: value === 1 ? 'Video puntuado con 1 estrella' : `Video puntuado con ${String(value)} estrellas` };
  }
  if (outcome === 'failed') {
    return { kind: 'error', message: value ? 'Error al añadir el video a favoritos' : 'Error al quitar el video de favoritos' };
  }
  return { kind: 'success', message: value ? 'Video añadido a favoritos' : 'Video quitado de favoritos' };
}

let doubles: ActorDoubles;
let user: UserEvent;
/**
 * The snapshot the UI was last checked in: the state an event starts from (xstate/graph hands an
 * executor the state the event leads to; the state checks run after each event).
 */
let before: Snapshot;
/** The toasts the user must have seen so far, oldest first. */
let toastsSeen: Array<{ kind: string; message: string }>;

function renderControls() {
  doubles = createActorDoubles();
  toastsSeen = [];
  // Toasts stay long enough for any path to read them all.
  const toasts = createToastStore(toastMachine.provide({ delays: { toastDuration: 10 * 60_000 } }));
  // The app's machine and toasts; only the two writes are doubled.
  const logic = createVideoOpinionLogic(createQueryClient(), toasts).provide({
    actors: {
      rateVideo: doubles.promise<Video, RateVideoInput>('rateVideo'),
      setFavorite: doubles.promise<Video, SetFavoriteInput>('setFavorite'),
    },
  });
  renderWithTheme(
    <>
      <VideoOpinionControls video={VIDEO} logic={logic} />
      <ToastViewport store={toasts} />
    </>,
  );
}

beforeEach(() => {
  user = userEvent.setup();
});

const ratingGroup = () => screen.getByRole('radiogroup', { name: 'Su puntuación' });
const heart = () => screen.getByRole('button', { name: 'Favorito' });
/** Stars lit in the own rating (Mantine keeps one extra, hidden symbol for 0 that is always "full"). */
const litStars = () => ratingGroup().querySelectorAll('svg[data-filled]').length - 1;
const starLabel = (stars: number) => (stars === 1 ? '1 estrella' : `${stars} estrellas`);
/** What a pointer user clicks: the star's label (the radio itself only previews the value). */
const starToClick = (name: string) => (within(ratingGroup()).getByRole('radio', { name }) as HTMLInputElement).labels![0]!;

function expectToasts() {
  const shown = screen.queryAllByRole('alert').map((alert) => alert.textContent);
  expect(shown).toEqual(toastsSeen.map((toast) => toast.message));
  for (const [index, alert] of screen.queryAllByRole('alert').entries()) {
    const kind = toastsSeen[index]!.kind;
    expect(alert.querySelector('.tabler-icon')).toHaveClass(kind === 'success' ? 'tabler-icon-check' : 'tabler-icon-x');
  }
}

const executors = {
  'opinion.rate': async ({ event }) => {
    // From the keyboard (Tab to the star, Enter). A pointer click works the same (the tests below),
    // but Mantine then lights the stars under the pointer, which jsdom, without layout, cannot place.
    within(ratingGroup()).getByRole('radio', { name: starLabel(event.stars) }).focus();
    await user.keyboard('{Enter}');
  },
  'opinion.favorite': async ({ event }) => {
    expect(heart()).toHaveAttribute('aria-pressed', String(!event.favorite));
    await user.click(heart());
  },
  'xstate.done.actor.rateVideo': async ({ event }) => {
    toastsSeen.push(expectedToast('rating', event.output.puntuacion!, 'saved'));
    await doubles.resolve('rateVideo', event.output);
  },
  'xstate.error.actor.rateVideo': async ({ event }) => {
    toastsSeen.push(expectedToast('rating', before.context.pendingRating!, 'failed'));
    await doubles.reject('rateVideo', event.error);
  },
  'xstate.done.actor.setFavorite': async ({ event }) => {
    toastsSeen.push(expectedToast('favorite', event.output.favorito, 'saved'));
    await doubles.resolve('setFavorite', event.output);
  },
  'xstate.error.actor.setFavorite': async ({ event }) => {
    toastsSeen.push(expectedToast('favorite', before.context.pendingFavorite!, 'failed'));
    await doubles.reject('setFavorite', event.error);
  },
} satisfies Executors<Snapshot, ModelEvent>;

const states = {
  '#videoOpinion.rating.idle': (snapshot) => {
    before = snapshot;
    const { rating } = snapshot.context;
    expect(ratingGroup()).not.toHaveAttribute('aria-busy');
    // Five stars to pick from; the saved rating is the checked one (none before rating).
    for (const stars of [1, 2, 3, 4, 5]) {
      const radio = within(ratingGroup()).getByRole('radio', { name: starLabel(stars) });
      expect(radio, starLabel(stars)).toHaveProperty('checked', stars === rating);
    }
    expect(litStars()).toBe(rating ?? 0);
    expect(doubles.pendingCount('rateVideo')).toBe(0);
    expectToasts();
  },
  '#videoOpinion.rating.saving': (snapshot) => {
    before = snapshot;
    const stars = snapshot.context.pendingRating!;
    // The picked stars show, and cannot be changed while they are saved.
    expect(ratingGroup()).toHaveAttribute('aria-busy', 'true');
    expect(within(ratingGroup()).queryAllByRole('radio')).toEqual([]);
    expect(litStars()).toBe(stars);
    expect(doubles.calls<RateVideoInput>('rateVideo').at(-1)?.input).toEqual({ id: VIDEO.id, value: stars });
    expect(doubles.pendingCount('rateVideo')).toBe(1);
    expectToasts();
  },
  '#videoOpinion.favorite.idle': (snapshot) => {
    before = snapshot;
    expect(heart()).toHaveAttribute('aria-pressed', String(snapshot.context.favorite));
    expect(heart()).toBeEnabled();
    expect(doubles.pendingCount('setFavorite')).toBe(0);
    expectToasts();
  },
  '#videoOpinion.favorite.saving': (snapshot) => {
    before = snapshot;
    const favorite = snapshot.context.pendingFavorite!;
    expect(heart()).toHaveAttribute('aria-pressed', String(favorite));
    expect(heart()).toBeDisabled();
    expect(doubles.calls<SetFavoriteInput>('setFavorite').at(-1)?.input).toEqual({ id: VIDEO.id, value: favorite });
    expect(doubles.pendingCount('setFavorite')).toBe(1);
    expectToasts();
  },
} satisfies StateChecks<Snapshot>;

describe('video opinion model (rating and favourite of the detail page)', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      renderControls();
      before = model.initial;
      await runPath(path, states, executors);
    });
  }
});

describe('video opinion model coverage', () => {
  itCoversTheMachine(videoOpinionMachine, paths, { events, states, executors });

  it('shows every R-VID-2 rating and favourite toast text, 1 estrella included', () => {
    const texts = new Set<string>();
    for (const { path } of paths) {
      for (const [index, step] of path.steps.entries()) {
        const before = path.steps[index - 1]?.state;
        const { event } = step;
        if (!before) continue;
        if (event.type === 'xstate.done.actor.rateVideo') texts.add(expectedToast('rating', event.output.puntuacion!, 'saved').message);
        if (event.type === 'xstate.error.actor.rateVideo') texts.add(expectedToast('rating', 0, 'failed').message);
        if (event.type === 'xstate.done.actor.setFavorite') texts.add(expectedToast('favorite', event.output.favorito, 'saved').message);
        if (event.type === 'xstate.error.actor.setFavorite') {
          texts.add(expectedToast('favorite', before.context.pendingFavorite!, 'failed').message);
        }
      }
    }
    expect([...texts].sort()).toEqual(
      [
        'Video puntuado con 4 estrellas',
        'Video puntuado con 1 estrella',
        'Error al guardar la puntuación',
        'Video añadido a favoritos',
        'Video quitado de favoritos',
        'Error al añadir el video a favoritos',
        'Error al quitar el video de favoritos',
      ].sort(),
    );
  });
});

describe('video opinion: the two controls are independent', () => {
  it('rates while the heart is being saved, and each saves and tells its own outcome', async () => {
    renderControls();
    await user.click(heart());
    expect(heart()).toBeDisabled();
    await user.click(starToClick('5 estrellas'));
    expect(ratingGroup()).toHaveAttribute('aria-busy', 'true');
    await doubles.resolve('rateVideo', answer({ puntuacion: 5, puntuacionMedia: 4 }));
    expect(await screen.findByText('Video puntuado con 5 estrellas')).toBeInTheDocument();
    expect(heart()).toBeDisabled();
    await doubles.reject('setFavorite', SERVER_ERROR);
    expect(await screen.findByText('Error al añadir el video a favoritos')).toBeInTheDocument();
    expect(heart()).toHaveAttribute('aria-pressed', 'false');
    expect(within(ratingGroup()).getByRole('radio', { name: '5 estrellas' })).toBeChecked();
  });

  it('rates with a click on a star', async () => {
    renderControls();
    await user.click(starToClick('3 estrellas'));
    expect(doubles.inputs('rateVideo')).toEqual([{ id: VIDEO.id, value: 3 }]);
    await doubles.resolve('rateVideo', answer({ puntuacion: 3 }));
    expect(await screen.findByText('Video puntuado con 3 estrellas')).toBeInTheDocument();
    expect(within(ratingGroup()).getByRole('radio', { name: '3 estrellas' })).toBeChecked();
  });
});
