import { describe, expect, it } from 'vitest';
import { commandForKey, keyBelongsToTarget } from './player-keys.ts';

describe('the player shortcuts', () => {
  it('maps space and k to play/pause, j/l to ±10 s, the arrows to ±5 s (R-VID-13)', () => {
    expect(commandForKey({ key: ' ' })).toEqual({ type: 'toggle-play' });
    expect(commandForKey({ key: 'k' })).toEqual({ type: 'toggle-play' });
    expect(commandForKey({ key: 'j' })).toEqual({ type: 'seek-by', seconds: -10 });
    expect(commandForKey({ key: 'L' })).toEqual({ type: 'seek-by', seconds: 10 });
    expect(commandForKey({ key: 'ArrowLeft' })).toEqual({ type: 'seek-by', seconds: -5 });
    expect(commandForKey({ key: 'ArrowRight' })).toEqual({ type: 'seek-by', seconds: 5 });
  });

  it('maps f, m, c and ? to fullscreen, mute, captions and the shortcuts overlay (R-VID-13)', () => {
    expect(commandForKey({ key: 'f' })).toEqual({ type: 'toggle-fullscreen' });
    expect(commandForKey({ key: 'm' })).toEqual({ type: 'toggle-mute' });
    expect(commandForKey({ key: 'c' })).toEqual({ type: 'toggle-captions' });
    expect(commandForKey({ key: '?' })).toEqual({ type: 'show-shortcuts' });
  });

  it('leaves other keys and the browser’s own combinations alone (R-VID-13)', () => {
    expect(commandForKey({ key: 'x' })).toBeNull();
    expect(commandForKey({ key: 'Enter' })).toBeNull();
    expect(commandForKey({ key: 'f', ctrlKey: true })).toBeNull();
    expect(commandForKey({ key: 'l', metaKey: true })).toBeNull();
  });

  it('does not steal keys from text fields, menus, the rating or controls outside the player (R-VID-13)', () => {
    document.body.innerHTML = `
      <section id="player"><button id="play">Reproducir</button></section>
      <input id="search" />
      <div role="menu"><button id="item" role="menuitem">1,5</button></div>
      <div role="radiogroup"><input type="radio" id="star" /></div>
      <a id="link" href="/videos">Volver</a>`;
    const player = document.getElementById('player');
    const at = (id: string) => document.getElementById(id);
    expect(keyBelongsToTarget(document.body, player)).toBe(false);
    expect(keyBelongsToTarget(at('play'), player)).toBe(false);
    expect(keyBelongsToTarget(at('search'), player)).toBe(true);
    expect(keyBelongsToTarget(at('item'), player)).toBe(true);
    expect(keyBelongsToTarget(at('star'), player)).toBe(true);
    expect(keyBelongsToTarget(at('link'), player)).toBe(true);
  });
});
