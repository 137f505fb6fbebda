/**
 * R-VID-15: the seek bar's previews. The storyboard is a WebVTT file whose cues name a region of a
 * sprite (`storyboard.jpg#xywh=x,y,w,h`); names resolve against the VTT's own address, so the
 * signed prefix carries over.
 */
export interface StoryboardFrame {
  start: number;
  end: number;
  /** The sprite's absolute URL. */
  image: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** `hh:mm:ss.ttt` or `mm:ss.ttt` in seconds (NaN when malformed). */
function vttTime(text: string): number {
  const match = /^(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})$/.exec(text.trim());
  if (!match) return Number.NaN;
  const [, hours = '0', minutes, seconds, millis] = match;
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds) + Number(millis) / 1000;
}

/** The frames of a storyboard VTT; cues without a valid `#xywh=` are left out. */
export function parseStoryboard(vtt: string, vttUrl: string): StoryboardFrame[] {
  const base = new URL(vttUrl, globalThis.location?.href ?? 'http://localhost/');
  const frames: StoryboardFrame[] = [];
  const blocks = vtt.replace(/\r\n?/g, '\n').split(/\n{2,}/);
  for (const block of blocks) {
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    const timing = lines.findIndex((line) => line.includes('-->'));
    if (timing < 0) continue;
    const [from = '', to = ''] = lines[timing]!.split('-->');
    const start = vttTime(from);
    const end = vttTime(to.trim().split(/\s+/)[0] ?? '');
    const payload = lines[timing + 1]?.trim();
    if (!payload || !Number.isFinite(start) || !Number.isFinite(end)) continue;
    const hash = payload.indexOf('#xywh=');
    if (hash < 0) continue;
    const numbers = payload.slice(hash + '#xywh='.length).split(',').map(Number);
    if (numbers.length !== 4 || numbers.some((value) => !Number.isFinite(value) || value < 0)) continue;
    const [x, y, width, height] = numbers as [number, number, number, number];
    frames.push({ start, end, image: new URL(payload.slice(0, hash), base).href, x, y, width, height });
  }
  return frames.sort((a, b) => a.start - b.start);
}

/** The frame showing at `seconds` (the last starting at or before it), or null. */
export function frameAt(frames: readonly StoryboardFrame[], seconds: number): StoryboardFrame | null {
  let found: StoryboardFrame | null = null;
  for (const frame of frames) {
    if (frame.start > seconds) break;
    found = frame;
  }
  return found;
}
