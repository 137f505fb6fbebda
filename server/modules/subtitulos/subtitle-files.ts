/**
 * Reading a subtitle file someone sent (WebVTT or SRT, in UTF-8, UTF-16 or Windows-1252) into cues,
 * and writing them back as one normalised WebVTT file: the only markup left is WebVTT's own (b, i,
 * u, c with classes, v with a voice, lang, ruby, rt) and the only escapes WebVTT's (&amp; &lt; &gt;
 * &lrm; &rlm; &nbsp;). Pure: no storage, no database (docs/decisions/0115-subtitle-files.md).
 * R-MED-12, R-MED-13.
 */

/** One cue as stored: times in milliseconds, its text with WebVTT's markup, and its words without any. */
export interface SubtitleCue {
  /** 1-based line of its timing in the file as sent */
  line: number;
  startMs: number;
  endMs: number;
  /** the valid cue settings kept, normalised ('' for none) */
  settings: string;
  /** the cue's text lines in WebVTT markup, none of them empty */
  lines: string[];
  /** its words: markup removed, entities decoded, lines joined by a space */
  text: string;
}

export interface ParsedSubtitles {
  cues: SubtitleCue[];
  /** the normalised WebVTT file */
  vtt: string;
}

/** A file refused: `message` is `line <n>: <what is wrong>`, the detail of a 400 `invalid-subtitles`. */
export class SubtitleFileError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'SubtitleFileError';
  }
}

/**
 * How far past the video's duration a cue may end: subtitle tools round a last cue up to the next
 * second, and the duration probed from the container can fall short of the last frame by a fraction.
 */
export const END_TOLERANCE_MS = 1000;

// ── bytes to text ───────────────────────────────────────────────────────────────────────────────

/**
 * The file's text: UTF-16 by its byte order mark; else UTF-8 (a BOM dropped) when the bytes are valid
 * UTF-8; else Windows-1252, what Spanish subtitle tools on Windows write (é, ñ as single bytes).
 */
export function decodeSubtitleBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // a UTF-8 BOM before bytes that are not UTF-8 reads as "ï»¿" in Windows-1252
    const text = new TextDecoder('windows-1252').decode(bytes).replace(/^\u00ef\u00bb\u00bf/, '');
    // Node 20's decoder reads 0x80–0x9F as ISO-8859-1's controls, not as Windows-1252's € ‚ … “ ” – —
    return text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
  }
}

/** Windows-1252's characters for the bytes 0x80–0x9F (the five it leaves undefined stay as they are). */
const WINDOWS_1252_HIGH: readonly (string | undefined)[] = [...'€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'];

// ── text to cues ────────────────────────────────────────────────────────────────────────────────

/** Characters no text file holds (C0 controls but tab and form feed, DEL): the bytes are binary. */
const BINARY = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/;
const HEADER = /^WEBVTT([ \t].*)?$/;
const DROPPED_BLOCK = /^(NOTE|STYLE|REGION)([ \t]|$)/;
/** `[hh:]mm:ss[.,]fff`: WebVTT's stamp and SRT's (comma), hours of any length, 1–3 fraction digits (or none). */
const STAMP = /^(?:(\d+):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?$/;
const EXAMPLE = '«00:00:01,000 --> 00:00:04,000»';

const blank = (line: string) => line.trim() === '';

/** A line as quoted in a refusal: at most 60 characters, controls shown as spaces. */
function quote(line: string): string {
  const text = line.trim().replace(/[\u0000-\u001f\u007f]/g, ' ');
  return `«${text.length > 60 ? `${text.slice(0, 60)}…` : text}»`;
}

/** Milliseconds of a stamp, or undefined when it is not one. */
function stampMs(text: string): number | undefined {
  const match = STAMP.exec(text);
  if (!match) return undefined;
  const [, hours = '0', minutes, seconds, fraction = '0'] = match;
  if (Number(minutes) > 59 || Number(seconds) > 59) return undefined;
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(fraction.padEnd(3, '0'));
}

/** `hh:mm:ss.fff`. */
export function formatStamp(ms: number): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const hours = Math.floor(ms / 3_600_000);
  return `${pad(hours)}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

const PERCENT = /^\d{1,3}(\.\d+)?%$/;
const percentOk = (value: string) => PERCENT.test(value) && Number.parseFloat(value) <= 100;

/**
 * The cue settings WebVTT defines, with valid values, once each (the last one given wins); the rest
 * dropped: `region:` (REGION blocks are dropped) and what SRT tools add (`X1:40 Y1:…`).
 */
function cleanSettings(text: string): string {
  const kept = new Map<string, string>();
  for (const token of text.trim().split(/[ \t]+/)) {
    const colon = token.indexOf(':');
    if (colon <= 0) continue;
    const name = token.slice(0, colon);
    const value = token.slice(colon + 1);
    const [main = '', alignment] = value.split(',', 3);
    const valid =
      (name === 'vertical' && /^(rl|lr)$/.test(value)) ||
      (name === 'line' && (/^-?\d{1,4}$/.test(main) || percentOk(main)) && (alignment === undefined || /^(start|center|end)$/.test(alignment)) && value.split(',').length <= 2) ||
      (name === 'position' && percentOk(main) && (alignment === undefined || /^(line-left|center|line-right)$/.test(alignment)) && value.split(',').length <= 2) ||
      (name === 'size' && percentOk(value)) ||
      (name === 'align' && /^(start|center|end|left|right)$/.test(value));
    if (valid) kept.set(name, value);
  }
  return [...kept].map(([name, value]) => `${name}:${value}`).join(' ');
}

/** A timing line's start, end and settings, or why it is refused. */
function readTiming(line: string): { startMs: number; endMs: number; settings: string } | undefined {
  const arrow = line.indexOf('-->');
  const start = stampMs(line.slice(0, arrow).trim());
  const rest = line.slice(arrow + 3).trimStart();
  const space = rest.search(/[ \t]/);
  const end = stampMs(space < 0 ? rest : rest.slice(0, space));
  if (start === undefined || end === undefined) return undefined;
  return { startMs: start, endMs: end, settings: space < 0 ? '' : cleanSettings(rest.slice(space)) };
}

/** Whether a refused first line still reads as a (malformed) timing rather than as some other file. */
const looksLikeTiming = (line: string) => /\d:\d\d/.test(line);

export interface ParseOptions {
  /** the video's length in seconds; 0 or absent: unknown, no cue is refused for its end */
  durationSeconds?: number;
}

/**
 * Reads a subtitle file into cues and writes the normalised WebVTT. WebVTT (the `WEBVTT` header, its
 * metadata lines, NOTE, STYLE and REGION blocks dropped, cue identifiers dropped, valid cue settings
 * kept) and SRT (numbered blocks, `00:00:01,000 --> 00:00:02,000`, also with `.`) are both read
 * from their text, whatever the content type said. Cues are sorted by start (stable); a cue whose
 * text is empty once cleaned, or that lasts no time, is dropped. Throws SubtitleFileError naming
 * the line for: binary data, a file that is neither format, a malformed timing, a block without a
 * timing, a cue that ends before it starts or past the video's end (END_TOLERANCE_MS), no cue at all.
 */
export function parseSubtitleFile(bytes: Uint8Array, options: ParseOptions = {}): ParsedSubtitles {
  const lines = decodeSubtitleBytes(bytes).split(/\r\n|\r|\n/);
  const binaryLine = lines.findIndex((line) => BINARY.test(line));
  if (binaryLine >= 0) throw new SubtitleFileError(binaryLine + 1, 'not a subtitle file (WebVTT or SRT): it holds binary data');

  const isVtt = HEADER.test(lines[0] ?? '');
  const limitMs = options.durationSeconds && options.durationSeconds > 0 ? Math.round(options.durationSeconds * 1000) + END_TOLERANCE_MS : undefined;
  const cues: SubtitleCue[] = [];
  let i = 0;
  if (isVtt) while (i < lines.length && !blank(lines[i]!)) i++; // the header and its metadata lines

  while (i < lines.length) {
    if (blank(lines[i]!)) {
      i++;
      continue;
    }
    const first = lines[i]!;
    if (isVtt && DROPPED_BLOCK.test(first) && !first.includes('-->')) {
      while (i < lines.length && !blank(lines[i]!)) i++;
      continue;
    }
    // A cue: its timing on the block's first line, or on the second after an identifier (SRT's number).
    const timingAt = first.includes('-->') ? i : i + 1 < lines.length && lines[i + 1]!.includes('-->') ? i + 1 : -1;
    const opening = cues.length === 0 && !isVtt;
    if (timingAt < 0) {
      if (opening) throw new SubtitleFileError(i + 1, `not a subtitle file (WebVTT or SRT): expected «WEBVTT» or a cue timing such as ${EXAMPLE}, found ${quote(first)}`);
      throw new SubtitleFileError(i + 1, `a block without a cue timing (such as ${EXAMPLE}): ${quote(first)}`);
    }
    const timingLine = lines[timingAt]!;
    const timing = readTiming(timingLine);
    if (!timing) {
      if (opening && !looksLikeTiming(timingLine)) {
        throw new SubtitleFileError(timingAt + 1, `not a subtitle file (WebVTT or SRT): expected «WEBVTT» or a cue timing such as ${EXAMPLE}, found ${quote(timingLine)}`);
      }
      throw new SubtitleFileError(timingAt + 1, `malformed timing ${quote(timingLine)} (expected such as ${EXAMPLE})`);
    }
    if (timing.endMs < timing.startMs) throw new SubtitleFileError(timingAt + 1, `the cue ends before it starts ${quote(timingLine)}`);
    if (limitMs !== undefined && timing.endMs > limitMs) {
      throw new SubtitleFileError(
        timingAt + 1,
        `the cue ends at ${formatStamp(timing.endMs)}, past the end of the video (${formatStamp(limitMs - END_TOLERANCE_MS)})`,
      );
    }
    // Its text: up to a blank line, or up to a line with "-->", which starts the next cue (as browsers read it).
    i = timingAt + 1;
    const text: string[] = [];
    while (i < lines.length && !blank(lines[i]!) && !lines[i]!.includes('-->')) text.push(lines[i++]!);
    const cleaned = cleanCueText(text);
    if (cleaned.lines.length > 0 && timing.endMs > timing.startMs) cues.push({ line: timingAt + 1, ...timing, ...cleaned });
  }
  if (cues.length === 0) {
    const last = lines.findLastIndex((line) => !blank(line));
    throw new SubtitleFileError(Math.max(1, last + 1), 'the file has no cues');
  }
  cues.sort((a, b) => a.startMs - b.startMs);
  return { cues, vtt: writeVtt(cues) };
}

/** The normalised file: the header, then each cue's timing, settings and text, a blank line between. */
export function writeVtt(cues: readonly SubtitleCue[]): string {
  const blocks = cues.map((cue) => [`${formatStamp(cue.startMs)} --> ${formatStamp(cue.endMs)}${cue.settings ? ` ${cue.settings}` : ''}`, ...cue.lines].join('\n'));
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}

// ── cue text ────────────────────────────────────────────────────────────────────────────────────

/** WebVTT's own tags; anything else (HTML, SRT's <font>) is dropped, its text kept. */
const ALLOWED_TAGS: ReadonlySet<string> = new Set(['b', 'i', 'u', 'c', 'v', 'lang', 'ruby', 'rt']);
const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', lrm: '\u200e', rlm: '\u200f', nbsp: '\u00a0', quot: '"', apos: "'" };
const CLASS = /^[A-Za-z0-9_-]{1,32}$/;
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;
/** `javascript:` also with blanks or controls between its letters, as URL parsers skip them. */
const SCRIPT_SCHEME = new RegExp(`${[...'javascript'].join('[\\s\\u0000-\\u001f]*')}[\\s\\u0000-\\u001f]*:`, 'gi');
/** Override codes SRT tools write for the ASS renderer (`{\an8}`, `{\i1}`): nothing a browser reads. */
const ASS_OVERRIDE = /\{\\[^}]*\}/g;
const TOKEN = /<([^<>]*)>|&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});|[^<&]+|[<&]/g;

/** WebVTT's escapes for text: &, <, > always; the direction marks and the no-break space as WebVTT names them. */
function escapeText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\u200e/g, '&lrm;')
    .replace(/\u200f/g, '&rlm;')
    .replace(/\u00a0/g, '&nbsp;');
}

/** What reads as an HTML tag once references are decoded (`&lt;img src=x&gt;`): `<` then a letter, `/`, `!` or `?`. */
const DECODED_TAG = /<[/!?A-Za-z][^<>]*>/g;

/**
 * Words with every `javascript:` and every HTML-looking tag removed (again, until none is left:
 * "javajavascript:script:"): what no caption says, and what a page that ever took cue text for markup
 * would run.
 */
function withoutScriptScheme(text: string): string {
  if (!text.includes(':') && !text.includes('<')) return text; // most cue text: nothing to look for
  let current = text;
  for (let previous = ''; previous !== current; ) {
    previous = current;
    current = current.replace(SCRIPT_SCHEME, '').replace(DECODED_TAG, '');
  }
  return current;
}

/** A character reference's text: the character, or the reference itself (as text) when it names none usable. */
function decodeEntity(reference: string): string {
  if (reference.startsWith('#')) {
    const code = reference[1] === 'x' || reference[1] === 'X' ? Number.parseInt(reference.slice(2), 16) : Number.parseInt(reference.slice(1), 10);
    const usable = code > 0x1f && code !== 0x7f && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return usable ? String.fromCodePoint(code) : '';
  }
  return NAMED_ENTITIES[reference] ?? `&${reference};`;
}

interface OpenTag {
  name: string;
}

/**
 * A cue's text lines cleaned: WebVTT's tags kept (classes of letters, digits, `_` and `-`; a voice's
 * name and a language tag as annotations), every other tag dropped with its attributes, tags balanced,
 * entities decoded and re-escaped, `javascript:` removed from the words. Also its plain words
 * (ruby annotations left out), for the transcript and the search.
 */
export function cleanCueText(lines: readonly string[]): { lines: string[]; text: string } {
  const source = lines.join('\n').replace(ASS_OVERRIDE, '');
  let out = '';
  let plain = '';
  const stack: OpenTag[] = [];
  // Text between kept tags is gathered decoded, so that a `javascript:` spelt with references or split
  // by a dropped tag is seen whole before it is escaped again.
  let pending = '';
  const flush = () => {
    const text = withoutScriptScheme(pending);
    out += escapeText(text);
    if (!stack.some((tag) => tag.name === 'rt')) plain += text;
    pending = '';
  };
  const close = (index: number) => {
    flush();
    while (stack.length > index) out += `</${stack.pop()!.name}>`;
  };

  for (const match of source.matchAll(TOKEN)) {
    const [token, tag, entity] = match;
    if (tag !== undefined) {
      const kept = keptTag(tag, stack);
      if (!kept) continue;
      if (kept.kind === 'end') {
        close(kept.index);
        continue;
      }
      flush();
      if (kept.name === 'rt' && stack.at(-1)?.name === 'rt') close(stack.length - 1);
      stack.push({ name: kept.name });
      out += kept.text;
    } else if (entity !== undefined) {
      pending += decodeEntity(entity);
    } else {
      pending += token;
    }
  }
  close(0);
  const cleaned = out
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const text = withoutScriptScheme(plain.replace(/[\u200e\u200f]/g, '').replace(/\s+/g, ' ').trim());
  return text === '' ? { lines: [], text } : { lines: cleaned, text };
}

type KeptTag = { kind: 'start'; name: string; text: string } | { kind: 'end'; index: number };

/**
 * What is kept of a tag (`inside` is between `<` and `>`): an end tag closes the innermost open tag of
 * its name (and those opened inside it); a start tag is written anew from what WebVTT allows. Tags of
 * other names, timestamps (`<00:00:05.000>`), end tags of nothing open, a voice without a name, a
 * language span without a tag and `<rt>` outside `<ruby>` are dropped.
 */
function keptTag(inside: string, stack: readonly OpenTag[]): KeptTag | undefined {
  if (inside.startsWith('/')) {
    const name = inside.slice(1).trim().split(/[\s.]/)[0]!.toLowerCase();
    for (let index = stack.length - 1; index >= 0; index--) if (stack[index]!.name === name) return { kind: 'end', index };
    return undefined;
  }
  const head = /^([^\s.]*)((?:\.[^\s.]*)*)(?:\s+([\s\S]*))?$/.exec(inside);
  if (!head) return undefined;
  const name = head[1]!.toLowerCase();
  if (!ALLOWED_TAGS.has(name)) return undefined;
  const classes = (head[2] ?? '')
    .split('.')
    .filter((c) => CLASS.test(c))
    .map((c) => `.${c}`)
    .join('');
  const annotation = (head[3] ?? '').replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});/g, (_, ref: string) => decodeEntity(ref)).replace(/\s+/g, ' ').trim();
  switch (name) {
    case 'v': {
      const voice = withoutScriptScheme(annotation);
      return voice ? { kind: 'start', name, text: `<v${classes} ${escapeText(voice)}>` } : undefined;
    }
    case 'lang':
      return LANGUAGE_TAG.test(annotation) ? { kind: 'start', name, text: `<lang${classes} ${annotation}>` } : undefined;
    case 'rt':
      return stack.some((tag) => tag.name === 'ruby') ? { kind: 'start', name, text: `<rt${classes}>` } : undefined;
    default:
      return { kind: 'start', name, text: `<${name}${classes}>` };
  }
}
