import { afterEach, describe, expect, it } from 'vitest';
import { focusPageWhenShown } from './page-focus.ts';

/** Lets the MutationObserver's callbacks run. */
const mutationsSeen = () => new Promise((resolve) => setTimeout(resolve, 0));

function showPage(title: string): HTMLElement {
  document.body.innerHTML = `<header><a href="/videos">Videos</a></header><main><h1>${title}</h1><a href="#x">Volver</a></main>`;
  return document.querySelector('h1')!;
}

describe('focusPageWhenShown', () => {
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    document.body.innerHTML = '';
  });

  it('focuses the main heading once it is in the document, made focusable by script only', async () => {
    document.body.innerHTML = '<main></main>';
    stop = focusPageWhenShown({ headingToo: true });
    expect(document.activeElement).toBe(document.body);
    const heading = showPage('Bienvenida');
    await mutationsSeen();
    expect(document.activeElement).toBe(heading);
    expect(heading.getAttribute('tabindex')).toBe('-1');
  });

  it('focuses the new heading when the page it found first is replaced before the user acts', async () => {
    showPage('Videos');
    stop = focusPageWhenShown({ headingToo: true });
    expect(document.activeElement?.textContent).toBe('Videos');
    const next = showPage('Bienvenida');
    await mutationsSeen();
    expect(document.activeElement).toBe(next);
  });

  it('leaves the focus where the page moved it (a dialog), even when its heading is replaced later', async () => {
    showPage('Videos');
    stop = focusPageWhenShown({ headingToo: true });
    const field = document.createElement('input');
    document.body.append(field);
    field.focus();
    await mutationsSeen();
    document.querySelector('main')!.innerHTML = '<h1>Otra</h1>';
    await mutationsSeen();
    expect(document.activeElement).toBe(field);
  });

  it('gives up once the user presses a key, and the focus stays theirs', async () => {
    document.body.innerHTML = '<main></main>';
    stop = focusPageWhenShown({ headingToo: true });
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    showPage('Bienvenida');
    await mutationsSeen();
    expect(document.activeElement).toBe(document.body);
  });

  it('on the first page of a visit only a marked field takes the focus, not the heading', async () => {
    showPage('Videos');
    stop = focusPageWhenShown({ headingToo: false });
    await mutationsSeen();
    expect(document.activeElement).toBe(document.body);
    document.querySelector('main')!.insertAdjacentHTML('beforeend', '<input data-page-focus aria-label="Usuario">');
    await mutationsSeen();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Usuario');
  });

  it('stops after its time', async () => {
    document.body.innerHTML = '<main></main>';
    stop = focusPageWhenShown({ headingToo: true, timeoutMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    showPage('Bienvenida');
    await mutationsSeen();
    expect(document.activeElement).toBe(document.body);
  });
});
