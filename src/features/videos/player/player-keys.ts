/**
 * R-VID-13: the player's keyboard shortcuts, as a pure mapping from a key press to a command, so the
 * page's listener stays small and the table is tested alone.
 */
import { playerMessages } from '../../../lib/messages.ts';

export type PlayerCommand =
  | { type: 'toggle-play' }
  | { type: 'seek-by'; seconds: number }
  | { type: 'toggle-fullscreen' }
  | { type: 'toggle-mute' }
  | { type: 'toggle-captions' }
  | { type: 'show-shortcuts' };

/** The shortcuts as the 'Atajos de teclado' overlay lists them. */
export const PLAYER_SHORTCUTS: ReadonlyArray<{ keys: string[]; description: string }> = [
  { keys: [playerMessages.keySpace, 'K'], description: playerMessages.shortcutPlay },
  { keys: ['J'], description: playerMessages.shortcutBack10 },
  { keys: ['L'], description: playerMessages.shortcutForward10 },
  { keys: ['←'], description: playerMessages.shortcutBack5 },
  { keys: ['→'], description: playerMessages.shortcutForward5 },
  { keys: ['F'], description: playerMessages.shortcutFullscreen },
  { keys: ['M'], description: playerMessages.shortcutMute },
  { keys: ['C'], description: playerMessages.shortcutCaptions },
  { keys: ['?'], description: playerMessages.shortcutHelp },
];

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/** The command of a key press, or null when the player leaves it to the browser. */
export function commandForKey({ key, ctrlKey, metaKey, altKey }: KeyPress): PlayerCommand | null {
  if (ctrlKey || metaKey || altKey) return null;
  switch (key) {
    case ' ':
    case 'k':
    case 'K':
      return { type: 'toggle-play' };
    case 'j':
    case 'J':
      return { type: 'seek-by', seconds: -10 };
    case 'l':
    case 'L':
      return { type: 'seek-by', seconds: 10 };
    case 'ArrowLeft':
      return { type: 'seek-by', seconds: -5 };
    case 'ArrowRight':
      return { type: 'seek-by', seconds: 5 };
    case 'f':
    case 'F':
      return { type: 'toggle-fullscreen' };
    case 'm':
    case 'M':
      return { type: 'toggle-mute' };
    case 'c':
    case 'C':
      return { type: 'toggle-captions' };
    case '?':
      return { type: 'show-shortcuts' };
    default:
      return null;
  }
}

/**
 * Whether a key press belongs to what has focus rather than to the player: text fields, menus,
 * sliders other than the seek bar, the rating's radios, open dialogs. The page's body and the
 * player's own buttons leave it to the player.
 */
export function keyBelongsToTarget(target: EventTarget | null, player: Element | null, key = ''): boolean {
  if (!(target instanceof Element)) return false;
  // The seek bar and the volume move with their own arrows.
  if (key.startsWith('Arrow') && target.closest('[role="slider"]')) return true;
  if (target.closest('[role="dialog"], [role="menu"], [role="listbox"]')) return true;
  if (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return true;
  if (target.closest('[role="radiogroup"], [role="radio"], [role="combobox"], [role="textbox"]')) return true;
  const inPlayer = player?.contains(target) ?? false;
  // Outside the player a button or link keeps its own Space/Enter; sliders keep their arrows.
  if (!inPlayer && target.closest('button, a[href], [role="slider"], [role="tab"]')) return true;
  return false;
}
