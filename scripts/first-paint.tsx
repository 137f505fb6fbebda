import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Button, MantineProvider } from '@mantine/core';
import { appLabels } from '../src/components/app-labels.ts';
import { AppTitle } from '../src/components/app-title.tsx';
import { HeaderBar } from '../src/components/header-bar.tsx';
import { NOT_ADMIN_ATTRIBUTE } from '../src/lib/early-requests.ts';
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
  const header = render(<FirstPaint />);
  return {
    '/videos': header,
    '/videos/$id': header,
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
