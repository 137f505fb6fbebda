/**
 * The player's controls and shortcuts on the real VideoPlayer (jsdom plays nothing: the <video>
 * element's position, duration and play/pause are stubbed, its events fired by the test).
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithTheme } from '../../../../tests/utils/render.tsx';
import { playbackMachine } from '../../../../machines/playback/playback.machine.ts';
import { VideoPlayer } from '../video-player.tsx';
import { CONTROLS_IDLE_MS } from './idle-controls.ts';
import { clockTime, PlayerControls, type PlayerControlsProps } from './player-controls.tsx';

const TITLE = 'Reunión anual';

function renderPlayer() {
  const logic = playbackMachine.provide({ actions: { savePosition: () => {} } });
  renderWithTheme(
    <VideoPlayer video={{ id: 7, titulo: TITLE, urlVideo: '/api/media/asset-7/video.mp4', urlThumbnail: null, posicion: null }} logic={logic} />,
  );
  const element = screen.getByLabelText(TITLE) as HTMLVideoElement;
  const media = { currentTime: 0, paused: true, rate: 1 };
  Object.defineProperties(element, {
    currentTime: {
      configurable: true,
      get: () => media.currentTime,
      set: (value: number) => {
        media.currentTime = value;
        fireEvent(element, new Event('timeupdate'));
      },
    },
    duration: { configurable: true, get: () => 296 },
    paused: { configurable: true, get: () => media.paused },
    play: {
      configurable: true,
      value: () => {
        media.paused = false;
        fireEvent(element, new Event('playing'));
        return Promise.resolve();
      },
    },
    pause: {
      configurable: true,
      value: () => {
        media.paused = true;
        fireEvent(element, new Event('pause'));
      },
    },
  });
  fireEvent(element, new Event('loadedmetadata'));
  return { element, media };
}

describe('the player controls', () => {
  it('replaces the browser controls with Spanish ones, the seek bar saying where it is (R-VID-10)', () => {
    const { element, media } = renderPlayer();
    expect(element).not.toHaveAttribute('controls');
    expect(screen.getByRole('button', { name: 'Reproducir' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Silenciar' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pantalla completa' })).toBeInTheDocument();
    media.currentTime = 83;
    fireEvent(element, new Event('timeupdate'));
    expect(screen.getByRole('slider', { name: 'Posición' })).toHaveAttribute('aria-valuetext', '1:23 de 4:56');
    expect(screen.getByText('1:23 / 4:56')).toBeInTheDocument();
    // No hls.js levels on the MP4: no quality menu.
    expect(screen.queryByRole('button', { name: /^Calidad/ })).not.toBeInTheDocument();
  });

  it('plays and pauses from its button, and mutes (R-VID-10)', async () => {
    const user = userEvent.setup();
    const { element, media } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Reproducir' }));
    expect(media.paused).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Pausar' }));
    expect(media.paused).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Silenciar' }));
    expect(element.muted).toBe(true);
    fireEvent(element, new Event('volumechange'));
    expect(screen.getByRole('button', { name: 'Activar sonido' })).toBeInTheDocument();
  });

  it('sets the speed from the Velocidad menu (R-VID-11)', async () => {
    const user = userEvent.setup();
    const { element } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Velocidad: Normal' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['0,5', '0,75', '1 (Normal)', '1,25', '1,5', '1,75', '2']);
    expect(within(menu).getByRole('menuitem', { name: '1 (Normal)' })).toHaveAttribute('aria-current', 'true');
    await user.click(within(menu).getByRole('menuitem', { name: '1,5' }));
    expect(element.playbackRate).toBe(1.5);
    expect(screen.getByRole('button', { name: 'Velocidad: 1,5' })).toBeInTheDocument();
  });

  it('answers the shortcuts on the page, and opens Atajos de teclado with ? (R-VID-13)', async () => {
    const user = userEvent.setup();
    const { element, media } = renderPlayer();
    document.body.focus();
    await user.keyboard(' ');
    expect(media.paused).toBe(false);
    await user.keyboard('k');
    expect(media.paused).toBe(true);
    media.currentTime = 30;
    await user.keyboard('l');
    expect(media.currentTime).toBe(40);
    await user.keyboard('j');
    await user.keyboard('{ArrowLeft}');
    expect(media.currentTime).toBe(25);
    await user.keyboard('{ArrowRight}');
    expect(media.currentTime).toBe(30);
    await user.keyboard('m');
    expect(element.muted).toBe(true);
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Atajos de teclado' });
    expect(within(dialog).getByText('Avanzar 10 segundos')).toBeInTheDocument();
    expect(within(dialog).getByText('Mostrar u ocultar los subtítulos')).toBeInTheDocument();
    // Keys typed in the overlay are its own: the media does not move.
    await user.keyboard('l');
    expect(media.currentTime).toBe(30);
  });

  it('leaves keys typed in a field alone (R-VID-13)', async () => {
    const user = userEvent.setup();
    const { media } = renderPlayer();
    const field = document.createElement('input');
    document.body.append(field);
    field.focus();
    await user.keyboard(' kl');
    expect(media.paused).toBe(true);
    expect(media.currentTime).toBe(0);
    expect(field.value).toBe(' kl');
    field.remove();
  });

  it('shows No se ha podido reproducir el video with Reintentar after a failure, and loads again (R-VID-16)', async () => {
    const { element } = renderPlayer();
    let loads = 0;
    Object.defineProperty(element, 'load', { configurable: true, value: () => void (loads += 1) });
    Object.defineProperty(element, 'error', { configurable: true, get: () => ({ code: 3 }) });
    fireEvent(element, new Event('error'));
    expect(await screen.findByRole('alert')).toHaveTextContent('No se ha podido reproducir el video');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Reintentar' })));
    expect(loads).toBe(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('the quality menu', () => {
  const props = (overrides: Partial<PlayerControlsProps> = {}): PlayerControlsProps => ({
    paused: true,
    currentTime: 0,
    duration: 60,
    volume: 1,
    muted: false,
    speed: 1,
    fullscreen: false,
    levels: [],
    level: -1,
    pipSupported: false,
    storyboard: [],
    portalTarget: undefined,
    shortcutsOpen: false,
    onShortcutsOpenChange: () => {},
    onTogglePlay: () => {},
    onSeek: () => {},
    onVolume: () => {},
    onToggleMute: () => {},
    onSpeed: () => {},
    onLevel: () => {},
    onPictureInPicture: () => {},
    onToggleFullscreen: () => {},
    ...overrides,
  });

  it('offers Automática and each height of the hls.js levels, highest first (R-VID-12)', async () => {
    const user = userEvent.setup();
    const chosen: number[] = [];
    renderWithTheme(
      <PlayerControls
        {...props({ levels: [{ index: 0, height: 360 }, { index: 1, height: 720 }, { index: 2, height: 1080 }], onLevel: (level) => chosen.push(level) })}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Calidad: Automática' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Automática', '1080p', '720p', '360p']);
    await user.click(within(menu).getByRole('menuitem', { name: '720p' }));
    expect(chosen).toEqual([1]);
  });

  it("says 'Cambiando a 720p' while hls.js moves to the chosen height, and the height once there (R-VID-32)", async () => {
    const user = userEvent.setup();
    const levels = [{ index: 0, height: 360 }, { index: 1, height: 720 }];
    const { rerender } = renderWithTheme(<PlayerControls {...props({ levels, level: 1, switchingLevel: true })} />);
    expect(screen.getByRole('status')).toHaveTextContent('Cambiando a 720p');
    await user.click(screen.getByRole('button', { name: 'Calidad: Cambiando a 720p' }));
    const item = within(await screen.findByRole('menu')).getByRole('menuitem', { name: /^720p/ });
    expect(item).toHaveAttribute('aria-current', 'true');
    expect(item).toHaveTextContent('Cambiando…');
    rerender(<PlayerControls {...props({ levels, level: 1, switchingLevel: false })} />);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    expect(screen.getByRole('button', { name: 'Calidad: 720p' })).toBeInTheDocument();
    expect(within(screen.getByRole('menu')).getByRole('menuitem', { name: '720p' })).not.toHaveTextContent('Cambiando');
  });

  it('offers picture-in-picture only where the browser has it (R-VID-14)', () => {
    const { rerender } = renderWithTheme(<PlayerControls {...props()} />);
    expect(screen.queryByRole('button', { name: 'Imagen en imagen' })).not.toBeInTheDocument();
    rerender(<PlayerControls {...props({ pipSupported: true, fullscreen: true })} />);
    expect(screen.getByRole('button', { name: 'Imagen en imagen' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Salir de pantalla completa' })).toBeInTheDocument();
  });

  it('writes times as a clock (R-VID-10)', () => {
    expect(clockTime(83)).toBe('1:23');
    expect(clockTime(3723)).toBe('1:02:03');
    expect(clockTime(Number.NaN)).toBe('0:00');
  });
});

describe('the control bar while the video plays untouched', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const bar = () => document.querySelector<HTMLElement>('[data-player-controls]')!;
  const frame = () => screen.getByRole('region', { name: 'Reproductor de video' });

  it('fades out after 3 s of playing, comes back with a pointer move or a key, and never while paused (R-VID-30)', () => {
    vi.useFakeTimers();
    const { element } = renderPlayer();
    const playLink = screen.getByRole('button', { name: 'Reproducir' });
    fireEvent.click(playLink);
    act(() => void vi.advanceTimersByTime(CONTROLS_IDLE_MS - 100));
    expect(bar().style.opacity).toBe('1');
    act(() => void vi.advanceTimersByTime(200));
    expect(bar().style.opacity).toBe('0');
    // Still there, the same node: hidden, not removed.
    expect(screen.getByRole('button', { name: 'Pausar' })).toBeInTheDocument();
    fireEvent.pointerMove(frame());
    expect(bar().style.opacity).toBe('1');
    act(() => void vi.advanceTimersByTime(CONTROLS_IDLE_MS + 100));
    expect(bar().style.opacity).toBe('0');
    fireEvent.keyDown(document.body, { key: 'Shift' });
    expect(bar().style.opacity).toBe('1');
    // Paused, it stays.
    fireEvent.click(screen.getByRole('button', { name: 'Pausar' }));
    act(() => void vi.advanceTimersByTime(CONTROLS_IDLE_MS * 2));
    expect(bar().style.opacity).toBe('1');
    expect(element.paused).toBe(true);
  });

  it('stays while the keyboard is on one of its buttons (R-VID-30)', async () => {
    const user = userEvent.setup();
    renderPlayer();
    fireEvent.click(screen.getByRole('button', { name: 'Reproducir' }));
    const mute = screen.getByRole('button', { name: 'Silenciar' });
    for (let presses = 0; presses < 20 && document.activeElement !== mute; presses += 1) await user.tab();
    expect(mute).toHaveFocus();
    // From here the clock is the test's: the next sign of the person starts the wait on it.
    vi.useFakeTimers();
    fireEvent.pointerMove(frame());
    act(() => void vi.advanceTimersByTime(CONTROLS_IDLE_MS * 2));
    expect(bar().style.opacity).toBe('1');
    // The keyboard leaves the player: the bar goes.
    act(() => mute.blur());
    fireEvent.pointerMove(frame());
    act(() => void vi.advanceTimersByTime(CONTROLS_IDLE_MS + 100));
    expect(bar().style.opacity).toBe('0');
  });

  it('stays while one of its menus is open (R-VID-30)', async () => {
    const user = userEvent.setup();
    renderPlayer();
    fireEvent.click(screen.getByRole('button', { name: 'Reproducir' }));
    await user.click(screen.getByRole('button', { name: 'Velocidad: Normal' }));
    await screen.findByRole('menu');
    vi.useFakeTimers();
    fireEvent.pointerMove(frame());
    act(() => void vi.advanceTimersByTime(CONTROLS_IDLE_MS * 2));
    expect(bar().style.opacity).toBe('1');
  });

  it('takes a touch on the hidden bar as a wish to see it, not as a press (R-VID-30)', () => {
    vi.useFakeTimers();
    const { media } = renderPlayer();
    fireEvent.click(screen.getByRole('button', { name: 'Reproducir' }));
    act(() => void vi.advanceTimersByTime(CONTROLS_IDLE_MS + 100));
    const pause = screen.getByRole('button', { name: 'Pausar' });
    fireEvent.pointerDown(pause, { pointerType: 'touch' });
    fireEvent.click(pause);
    expect(media.paused).toBe(false);
    expect(bar().style.opacity).toBe('1');
    // Shown, the next touch presses.
    fireEvent.pointerDown(pause, { pointerType: 'touch' });
    fireEvent.click(pause);
    expect(media.paused).toBe(true);
  });
});
