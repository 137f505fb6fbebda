import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { firstPaints } from '../../scripts/first-paint.tsx';
import { applyPreloadedStyles, dropDuplicatesOnReplacement, EARLY_PART, GRID_BREAKPOINTS, gridColumns, paintFirstRow, paintVideoTop, thumbnailSrcSet } from './early-requests.ts';

/** /videos' first paint as the built document holds it (scripts/first-paint.tsx), in this page. */
const FIRST_PAINT = firstPaints()['/videos']!;

const video = (id: number, changes: Record<string, unknown> = {}) => ({
  id,
  titulo: `Video ${id}`,
  urlThumbnail: `/api/media/asset-${id}/thumbnail.jpg?expires=1&signature=s${id}`,
  visto: false,
  ...changes,
});
const tags = [
  { id: 1, nombre: 'Formación' },
  { id: 2, nombre: 'Seguridad' },
];

const cards = () => [...document.querySelectorAll(`[${EARLY_PART.row}] article`)];
const strip = () => document.querySelector<HTMLElement>(`[${EARLY_PART.tagStrip}]`)!;

beforeEach(() => {
  document.body.innerHTML = `<div id="root">${FIRST_PAINT}</div>`;
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe("/videos' first row, painted by the document's early script before the app runs", () => {
  it('shows as many cards as the window has columns, each with its picture (the same srcset as the app\'s card) and its title', () => {
    const list = [video(1), video(2), video(3), video(4), video(5)];
    expect(paintFirstRow(document, list, tags, 3)).toBe(3);
    expect(cards().map((card) => card.querySelector('h2')?.textContent)).toEqual(['Video 1', 'Video 2', 'Video 3']);
    const picture = cards()[1]!.querySelector('img')!;
    expect(picture.getAttribute('src')).toBe(list[1]!.urlThumbnail);
    expect(picture.getAttribute('srcset')).toBe(thumbnailSrcSet(list[1]!.urlThumbnail));
    expect(picture.getAttribute('fetchpriority')).toBe('high');
    expect(document.querySelector<HTMLElement>(`[${EARLY_PART.row}]`)!.style.gridTemplateColumns).toBe('repeat(3,minmax(0,1fr))');
  });

  it('shows fewer cards when the list is shorter than a row, and none for an empty list', () => {
    expect(paintFirstRow(document, [video(1)], tags, 4)).toBe(1);
    document.body.innerHTML = `<div id="root">${FIRST_PAINT}</div>`;
    expect(paintFirstRow(document, [], tags, 4)).toBe(0);
    expect(cards()).toHaveLength(0);
  });

  it("keeps 'No visto' on a video not seen only", () => {
    paintFirstRow(document, [video(1, { visto: true }), video(2)], tags, 2);
    expect(cards().map((card) => card.textContent?.includes('No visto'))).toEqual([false, true]);
  });

  it('shows each video\'s duration as the app\'s card reads it (m:ss, h:mm:ss from an hour on)', () => {
    paintFirstRow(document, [video(1, { duracion: 65.4 }), video(2, { duracion: 3725 }), video(3, { duracion: 'x' })], tags, 3);
    const durations = cards().map((card) => card.querySelector(`[${EARLY_PART.duration}]`)?.textContent);
    expect(durations).toEqual(['1:05', '1:02:05', '0:00']);
  });

  it('puts the titles in as text: markup in a title is shown, never run or parsed', () => {
    const title = '<img src=x onerror="window.__ran=1"><b>Título</b>';
    paintFirstRow(document, [video(1, { titulo: title })], tags, 1);
    const heading = cards()[0]!.querySelector('h2')!;
    expect(heading.textContent).toBe(title);
    expect(heading.children).toHaveLength(0);
    expect(cards()[0]!.querySelectorAll('img')).toHaveLength(1);
  });

  it('leaves the picture out when the video has none, or its location is not one of the server\'s paths', () => {
    paintFirstRow(document, [video(1, { urlThumbnail: null }), video(2, { urlThumbnail: 'https://elsewhere.example/x.jpg' }), video(3, { urlThumbnail: 'javascript:alert(1)' })], tags, 3);
    expect(cards().map((card) => card.querySelectorAll('img').length)).toEqual([0, 0, 0]);
    expect(cards().map((card) => card.querySelector('h2')?.textContent)).toEqual(['Video 1', 'Video 2', 'Video 3']);
  });

  it('shows the strip of tags with one chip per tag, named as text and without two elements of one id', () => {
    expect(strip().hidden).toBe(true);
    paintFirstRow(document, [video(1)], tags, 1);
    expect(strip().hidden).toBe(false);
    expect([...strip().querySelectorAll('label')].map((label) => label.textContent)).toEqual(['Formación', 'Seguridad']);
    expect(strip().querySelectorAll('[id], [for]')).toHaveLength(0);
  });

  it('keeps the strip hidden when there are no tags (the app shows none then)', () => {
    paintFirstRow(document, [video(1)], [], 1);
    expect(strip().hidden).toBe(true);
    expect(cards()).toHaveLength(1);
  });

  it('does nothing once the app has replaced the first paint, or when an answer is not a list', () => {
    expect(paintFirstRow(document, { error: 'x' }, tags, 2)).toBe(0);
    expect(paintFirstRow(document, [video(1)], null, 2)).toBe(0);
    expect(cards()).toHaveLength(0);
    document.body.innerHTML = '<div id="root"><main>the app</main></div>';
    expect(paintFirstRow(document, [video(1)], tags, 2)).toBe(0);
    expect(document.body.innerHTML).toBe('<div id="root"><main>the app</main></div>');
  });
});

describe("the list's columns by window width (the app's grid's breakpoints)", () => {
  it.each([
    [375, 1],
    [640, 2],
    [991, 2],
    [992, 3],
    [1279, 3],
    [1280, 4],
  ])('%i px: %i', (width, columns) => {
    const matches = (query: string) => width >= Number(/min-width: (\d+)px/.exec(query)?.[1]);
    expect(gridColumns(matches)).toBe(columns);
  });

  it('asks exactly the grid\'s media queries', () => {
    const asked: string[] = [];
    gridColumns((query) => (asked.push(query), false));
    expect(asked.sort()).toEqual(Object.values(GRID_BREAKPOINTS).sort());
  });
});

describe("the stylesheets the early script applied, once the app has replaced the first paint", () => {
  const sheet = (href: string) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    document.head.append(link);
    return link;
  };
  const hrefs = () => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((link) => link.getAttribute('href'));
  const replaceFirstPaint = async () => {
    document.getElementById('root')!.innerHTML = '<main>the app</main>';
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it("are removed where the app's loader applied the same files again, and only once the first paint is gone", async () => {
    const ours = [sheet('/assets/shared.css'), sheet('/assets/_auth.css')];
    dropDuplicatesOnReplacement(document, ours);
    sheet(`${window.location.origin}/assets/shared.css`);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(hrefs()).toHaveLength(3);
    await replaceFirstPaint();
    expect(hrefs()).toEqual(['/assets/_auth.css', `${window.location.origin}/assets/shared.css`]);
  });

  it("stay when the app's loader found them and added none", async () => {
    const ours = [sheet('/assets/shared.css')];
    dropDuplicatesOnReplacement(document, ours);
    await replaceFirstPaint();
    expect(hrefs()).toEqual(['/assets/shared.css']);
  });
});

describe("the route's preloaded stylesheets, applied before a first paint shows", () => {
  const preload = (href: string) => {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.setAttribute('as', 'style');
    link.href = href;
    link.setAttribute('crossorigin', '');
    document.head.append(link);
  };
  const stylesheets = () => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('are applied from the preloaded address, in its mode, and the paint waits until they have loaded', async () => {
    preload('/assets/_id.css');
    let applied = false;
    const applying = applyPreloadedStyles(document).then(() => (applied = true));
    await tick();
    expect(stylesheets().map((link) => [link.getAttribute('href'), link.getAttribute('crossorigin')])).toEqual([['/assets/_id.css', '']]);
    expect(applied).toBe(false);
    stylesheets()[0]!.dispatchEvent(new Event('load'));
    await applying;
    expect(applied).toBe(true);
  });

  it("wait as well for the copy the app's loader added first (its code was cached), and add none", async () => {
    preload('/assets/_id.css');
    const loaders = document.createElement('link');
    loaders.rel = 'stylesheet';
    loaders.href = `${window.location.origin}/assets/_id.css`;
    document.head.append(loaders);
    let applied = false;
    const applying = applyPreloadedStyles(document).then(() => (applied = true));
    await tick();
    expect(stylesheets()).toEqual([loaders]);
    // painted now, the first paint would show without the route's styles (a CI run saw the page jump)
    expect(applied).toBe(false);
    loaders.dispatchEvent(new Event('error'));
    await applying;
    expect(applied).toBe(true);
  });
});

describe("a video's page's top, painted by the document's early script before the app runs", () => {
  const VIDEO_PAINT = firstPaints()['/videos/$id']!;
  const poster = () => document.querySelector<HTMLImageElement>(`[${EARLY_PART.poster}]`);
  const title = () => document.querySelector(`[${EARLY_PART.videoTitle}]`)!;
  beforeEach(() => {
    document.body.innerHTML = `<div id="root">${VIDEO_PAINT}</div>`;
  });

  it("shows the video's poster (its thumbnail, as the player's) and its title, with 'Volver' above them", () => {
    expect(paintVideoTop(document, video(8))).toBe(true);
    expect(poster()?.getAttribute('src')).toBe(video(8).urlThumbnail);
    expect(title().textContent).toBe('Video 8');
    expect(document.querySelector('[data-first-paint-video] a[href="/videos"]')?.textContent).toBe('Volver');
  });

  it('puts the title in as text, and leaves the poster out when there is none or it is not one of the server\'s paths', () => {
    paintVideoTop(document, video(8, { titulo: '<script>window.__ran=1</script>', urlThumbnail: 'javascript:alert(1)' }));
    expect(title().textContent).toBe('<script>window.__ran=1</script>');
    expect(title().children).toHaveLength(0);
    expect(poster()).toBeNull();
    document.body.innerHTML = `<div id="root">${VIDEO_PAINT}</div>`;
    paintVideoTop(document, video(8, { urlThumbnail: null }));
    expect(poster()).toBeNull();
  });

  it('does nothing without its first paint (the app has replaced it) or without a video', () => {
    expect(paintVideoTop(document, null)).toBe(false);
    expect(title().textContent).toBe('');
    document.body.innerHTML = '<div id="root"><main>the app</main></div>';
    expect(paintVideoTop(document, video(8))).toBe(false);
  });
});
