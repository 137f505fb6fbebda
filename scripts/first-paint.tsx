import { pathToFileURL } from 'node:url';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Button, Container, MantineProvider, Stack } from '@mantine/core';
import { parseFilters } from '../machines/video-filters/video-filters.ts';
import { appLabels } from '../src/components/app-labels.ts';
import { AppTitle } from '../src/components/app-title.tsx';
import { HeaderBar } from '../src/components/header-bar.tsx';
import { FirstPaintCard } from '../src/features/videos/video-card.tsx';
import { FirstPaintVideoTop } from '../src/features/videos/video-detail.tsx';
import { FiltersBarView } from '../src/features/videos/video-filters-bar.tsx';
import { EARLY_LIST_ATTRIBUTE, EARLY_PART, EARLY_VIDEO_ATTRIBUTE, NOT_ADMIN_ATTRIBUTE } from '../src/lib/early-requests.ts';
import { libraryMessages } from '../src/lib/messages.ts';
import { backButtonLook, exportButtonLook, StatisticsTop } from '../src/features/statistics/statistics-top.tsx';
import { providerSettings } from '../src/lib/theme.ts';

/**
 * What a signed-in page's document shows before the app has run (docs/DECISIONS.md, "A first paint
 * in the documents"): the header bar with the site's name, and on /statistics the dashboard's first
 * row ('Volver', 'Datos Generales', 'Exportar dashboard'), rendered at build time from the very
 * components the app renders them with, into `<div id="root">` (scripts/route-pages.ts). On a phone's
 * network the app's code takes a second or more to arrive and run; until then the page was blank,
 * and the dashboard's heading (its largest text) waited for that code. React replaces this content
 * with the app's in its first commit, where the same parts come at the same places (the end-to-end
 * test compares them). It takes no input meanwhile (`inert`) and is hidden from assistive
 * technology, which gets the app's own page a moment later; the user's menu is the app's.
 */

/** The attribute that marks the first paint (tests look for it). */
export const FIRST_PAINT_ATTRIBUTE = 'data-first-paint';

/**
 * Below Mantine's `xs` the app's header leaves its name to assistive technology (app-header.tsx,
 * HEADER_NAME_HIDDEN, with Mantine's VisuallyHidden): so does this one, by a media query. Above it
 * the wrapper is no box of its own, so the name lies in the bar as the app's does.
 */
const PHONE_NAME_CSS =
  '[data-first-paint] .first-paint-name{display:contents}' +
  '@media (max-width: 35.99em){[data-first-paint] .first-paint-name{display:inline;border:0;clip:rect(0 0 0 0);height:calc(0.0625rem*var(--mantine-scale));width:calc(0.0625rem*var(--mantine-scale));margin:calc(-0.0625rem*var(--mantine-scale));overflow:hidden;padding:0;position:absolute;white-space:nowrap}}';

/**
 * The dashboard's first row is for administrators: for anyone else the document's early script
 * (src/lib/early-requests.ts) marks the root and the row is not painted; the app then shows
 * /Forbidden (or the sign-in page). Without the mark (JavaScript off) it is painted.
 */
const ADMIN_ONLY_ATTRIBUTE = 'data-first-paint-admin';
const ADMIN_ONLY_CSS = `[${ADMIN_ONLY_ATTRIBUTE}]{display:contents}:root[${NOT_ADMIN_ATTRIBUTE}] [${ADMIN_ONLY_ATTRIBUTE}]{display:none}`;

/** CSS showing the elements marked `attribute` only once the early script has set `mark` on the root. */
const shownUnderMark = (attribute: string, mark: string) => `[${attribute}]{display:none}:root[${mark}] [${attribute}]{display:block}`;

/**
 * /videos' first paint, for the plain list (no filters: the one the document's early script asks
 * for, EARLY_LIST_ATTRIBUTE): the list's controls as the app first draws them, an empty grid and a
 * card's template, which the early script fills with the first row once the list and the tags
 * arrive (`paintFirstRow`). The strip of tags waits hidden for the tags. Elsewhere (a filtered
 * list, no session, JavaScript off) only the header is painted, as before.
 */
const LIST_ATTRIBUTE = 'data-first-paint-list';
const LIST_CSS = shownUnderMark(LIST_ATTRIBUTE, EARLY_LIST_ATTRIBUTE) + `[${EARLY_PART.tagStrip}][hidden]{display:none!important}`;
/** The strip's sample chip: the early script copies it for each tag. */
const SAMPLE_TAG = { id: 1, nombre: 'first-paint-sample-tag' };
const noop = () => undefined;

function FirstRow() {
  return (
    <div {...{ [LIST_ATTRIBUTE]: '' }}>
      <style>{LIST_CSS}</style>
      <Container size="xl" py="lg">
        <Stack gap="lg">
          <FiltersBarView filters={parseFilters({})} restoring={false} send={noop} tags={[SAMPLE_TAG]} />
          <div {...{ [EARLY_PART.row]: '' }} />
        </Stack>
      </Container>
      <template {...{ [EARLY_PART.card]: '' }}>
        <FirstPaintCard />
      </template>
    </div>
  );
}

/**
 * A video's page's first paint: 'Volver', the player's frame and the title, hidden until the early
 * script has filled them from the video's early read (`paintVideoTop`, EARLY_VIDEO_ATTRIBUTE).
 */
const VIDEO_ATTRIBUTE = 'data-first-paint-video';
const VIDEO_CSS = shownUnderMark(VIDEO_ATTRIBUTE, EARLY_VIDEO_ATTRIBUTE);

function VideoTop() {
  return (
    <div {...{ [VIDEO_ATTRIBUTE]: '' }}>
      <style>{VIDEO_CSS}</style>
      <FirstPaintVideoTop />
    </div>
  );
}

/** Marks the strip of tags (hidden) and its sample chip in the rendered bar, for the early script. */
function markTagStrip(html: string): string {
  const strip = `aria-label="${libraryMessages.tagStrip}"`;
  // The sample chip's own element: the one holding its checkbox and its label.
  const chip = new RegExp(`<div([^>]*)>(?=<input[^>]*><label[^>]*><span>${SAMPLE_TAG.nombre}</span></label></div>)`);
  if (html.split(strip).length !== 2 || !chip.test(html)) throw new Error("the first paint's strip of tags is not where scripts/first-paint.tsx looks for it");
  return html.replace(strip, `${strip} ${EARLY_PART.tagStrip} hidden`).replace(chip, `<div$1 ${EARLY_PART.tagChip}>`);
}

const PhoneHiddenName = ({ children }: { children: ReactNode }) => <span className="first-paint-name">{children}</span>;

function FirstPaint({ children }: { children?: ReactNode }) {
  return (
    <div {...{ [FIRST_PAINT_ATTRIBUTE]: '' }} inert aria-hidden="true">
      <style>{PHONE_NAME_CSS + ADMIN_ONLY_CSS}</style>
      <HeaderBar>
        <a href="/videos" style={{ color: 'inherit', textDecoration: 'none' }}>
          <AppTitle heading={false} NameWrapper={PhoneHiddenName} />
        </a>
      </HeaderBar>
      {children}
    </div>
  );
}

function render(node: ReactNode): string {
  // The theme's variables and global classes are in the document already (theme-stylesheet.ts).
  const html = renderToStaticMarkup(
    <MantineProvider {...providerSettings} withCssVariables={false} withGlobalClasses={false}>
      {node}
    </MantineProvider>,
  );
  if (/<script/i.test(html)) throw new Error('the first paint holds a script');
  return html;
}

/** The first paint of each signed-in page, by its route's path. */
export function firstPaints(): Record<string, string> {
  return {
    '/videos': markTagStrip(
      render(
        <FirstPaint>
          <FirstRow />
        </FirstPaint>,
      ),
    ),
    '/videos/$id': render(
      <FirstPaint>
        <VideoTop />
      </FirstPaint>,
    ),
    '/statistics': render(
      <FirstPaint>
        <div {...{ [ADMIN_ONLY_ATTRIBUTE]: '' }}>
          <StatisticsTop
            component="div"
            back={
              <Button component="a" href="/videos" {...backButtonLook}>
                {appLabels.back}
              </Button>
            }
            exportButton={<Button {...exportButtonLook}>{appLabels.exportDashboard}</Button>}
          />
        </div>
      </FirstPaint>,
    ),
  };
}

// Run as a script (vite.config.ts): the first paints as JSON.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.stdout.write(JSON.stringify(firstPaints()));
