/**
 * The wizard's Subtítulos section (R-UPL-9, R-UPL-10) as an administrator uses it, and the PUT of
 * each file (R-UPL-11): its language read from the name, one file per language, a file that is no
 * subtitle file refused on the spot, and the server's refusals in Spanish.
 */
import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { http, problem, server } from '../../../../tests/utils/msw.ts';
import { renderWithTheme } from '../../../../tests/utils/render.tsx';
import { guessSubtitleLanguage, languageName, subtitleContentType, type SubtitleChoice } from './subtitle-files.ts';
import { SubtitleFilesSection } from './subtitle-files-section.tsx';
import { createSendSubtitles, subtitleRefusalMessage } from './subtitles.actors.ts';

const file = (name: string, text = 'WEBVTT\n\n00:00.000 --> 00:01.000\nHola\n') => new File([text], name, { type: '' });

function Host({ initial = [] }: { initial?: SubtitleChoice[] }) {
  const [value, setValue] = useState<SubtitleChoice[]>(initial);
  return <SubtitleFilesSection value={value} onChange={setValue} />;
}

const section = () => within(screen.getByRole('group', { name: 'Subtítulos' }));
const addInput = () => document.querySelector<HTMLInputElement>('input[type="file"][multiple][accept*=".vtt"]')!;
const replaceInput = () => document.querySelector<HTMLInputElement>('input[type="file"]:not([multiple])[accept*=".vtt"]')!;

describe('subtitle files', () => {
  it('read the language from the name (charla.en.srt → en), else Spanish; name it in Spanish', () => {
    expect(guessSubtitleLanguage('charla.en.srt')).toBe('en');
    expect(guessSubtitleLanguage('Charla.CA.vtt')).toBe('ca');
    expect(guessSubtitleLanguage('charla.pt-BR.vtt')).toBe('pt');
    expect(guessSubtitleLanguage('charla.srt')).toBe('es');
    // A part that is no offered language is just a name.
    expect(guessSubtitleLanguage('acta.final.vtt')).toBe('es');
    expect(['es', 'en', 'ca', 'eu', 'gl', 'fr', 'pt', 'de', 'it'].map(languageName)).toEqual([
      'Español',
      'Inglés',
      'Catalán',
      'Euskera',
      'Gallego',
      'Francés',
      'Portugués',
      'Alemán',
      'Italiano',
    ]);
  });

  it('are sent typed by their extension', () => {
    expect(subtitleContentType('charla.en.SRT')).toBe('application/x-subrip');
    expect(subtitleContentType('charla.vtt')).toBe('text/vtt');
  });

  it("say the server's refusals in Spanish, naming the line", () => {
    expect(subtitleRefusalMessage({ type: 'invalid-subtitles', detail: 'line 7: malformed timing «00:01:xx,000 --> 00:01:02,000» (expected such as «00:00:01,000 --> 00:00:04,000»)' })).toBe(
      'El archivo de subtítulos no es válido: línea 7: tiempo mal escrito «00:01:xx,000 --> 00:01:02,000» (se esperaba como «00:00:01,000 --> 00:00:04,000»)',
    );
    // Every reason server/modules/subtitulos/subtitle-files.ts gives, as it words them.
    const reasons = [
      'line 1: not a subtitle file (WebVTT or SRT): it holds binary data',
      'line 1: not a subtitle file (WebVTT or SRT): expected «WEBVTT» or a cue timing such as «00:00:01,000 --> 00:00:04,000», found «<html>»',
      'line 4: a block without a cue timing (such as «00:00:01,000 --> 00:00:04,000»): «Hola»',
      'line 2: the cue ends before it starts «00:00:05,000 --> 00:00:01,000»',
      'line 9: the cue ends at 0:12.000, past the end of the video (0:10.000)',
      'line 1: the file has no cues',
    ].map((detail) => subtitleRefusalMessage({ type: 'invalid-subtitles', detail }));
    for (const message of reasons) expect(message).not.toMatch(/\b(line|not a|expected|found|cue|ends|file has)\b/);
    expect(reasons[4]).toBe('El archivo de subtítulos no es válido: línea 9: el subtítulo termina en 0:12.000, después del final del video (0:10.000)');
    // A reason this version does not know keeps the line, in Spanish.
    expect(subtitleRefusalMessage({ type: 'invalid-subtitles', detail: 'line 3: something new' })).toBe('El archivo de subtítulos no es válido: línea 3');
    expect(subtitleRefusalMessage({ type: 'payload-too-large', detail: null })).toBe('El archivo de subtítulos supera el tamaño máximo de 2 MB');
    expect(subtitleRefusalMessage({ type: 'unsupported-media-type', detail: null })).toBe('El archivo no es un archivo de subtítulos .vtt o .srt');
    expect(subtitleRefusalMessage({ type: 'network-error', detail: null })).toBe('No se han podido guardar los subtítulos');
  });
});

describe('the Subtítulos section of the wizard', () => {
  it('adds files with the language of their names, one per language, and each row can change, be replaced and removed', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderWithTheme(<Host />);
    await user.upload(addInput(), [file('charla.en.srt'), file('charla.vtt')]);
    expect(section().getByRole('combobox', { name: 'Idioma de charla.en.srt' })).toHaveValue('Inglés');
    expect(section().getByRole('combobox', { name: 'Idioma de charla.vtt' })).toHaveValue('Español');

    // A second Spanish file takes the first free language: never two files for one language.
    await user.upload(addInput(), file('otra.srt'));
    expect(section().getByRole('combobox', { name: 'Idioma de otra.srt' })).toHaveValue('Catalán');
    await user.click(section().getByRole('combobox', { name: 'Idioma de otra.srt' }));
    expect(await screen.findByRole('option', { name: 'Inglés' })).toHaveAttribute('data-combobox-disabled');
    await user.click(screen.getByRole('option', { name: 'Gallego' }));
    expect(section().getByRole('combobox', { name: 'Idioma de otra.srt' })).toHaveValue('Gallego');

    // Replace keeps the language; remove takes the row away.
    await user.upload(replaceInput(), file('charla-v2.en.vtt'));
    expect(section().getByRole('combobox', { name: 'Idioma de charla-v2.en.vtt' })).toHaveValue('Inglés');
    expect(section().queryByText('charla.en.srt')).not.toBeInTheDocument();
    await user.click(section().getByRole('button', { name: 'Quitar los subtítulos en Gallego' }));
    expect(section().queryByText('otra.srt')).not.toBeInTheDocument();
    expect(section().getAllByRole('listitem')).toHaveLength(2);
  });

  it('refuses a file that is no .vtt or .srt, keeping the others', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderWithTheme(<Host initial={[{ idioma: 'es', file: file('charla.srt') }]} />);
    await user.upload(addInput(), new File(['hola'], 'notas.txt', { type: 'text/plain' }));
    expect(section().getByRole('alert')).toHaveTextContent('El archivo «notas.txt» no es un archivo de subtítulos .vtt o .srt');
    expect(section().getByText('charla.srt')).toBeVisible();
  });
});

describe('sendSubtitles (after Confirmar)', () => {
  it('PUTs each file as its bytes with the type of its extension; a refused one is reported and the others still go', async () => {
    const received: Array<{ idioma: string; type: string | null; body: string }> = [];
    server.use(
      http.put('/api/videos/{id}/subtitulos/{idioma}', async ({ params, request, response }) => {
        const body = await request.text();
        received.push({ idioma: params.idioma, type: request.headers.get('content-type'), body });
        if (params.idioma === 'fr') return problem(400, 'invalid-subtitles', 'line 3: malformed timing «00:01:xx,000 --> 00:01:02,000» (expected such as «00:00:01,000 --> 00:00:04,000»)') as never;
        return response(201).json({ idioma: params.idioma, etiqueta: 'Inglés', url: `/api/media/a/subtitulos-${params.idioma}.vtt?s=1` });
      }),
    );
    const actor = createActor(createSendSubtitles(new QueryClient()), {
      input: {
        videoId: 41,
        subtitles: [
          { idioma: 'fr', file: file('charla.fr.srt', '1\n00:00:01 --> mal\nBonjour\n') },
          { idioma: 'en', file: file('charla.en.srt', '1\n00:00:01,000 --> 00:00:02,000\nHello\n') },
        ],
      },
    }).start();
    const output = await toPromise(actor);
    expect(received).toEqual([
      { idioma: 'fr', type: 'application/x-subrip', body: '1\n00:00:01 --> mal\nBonjour\n' },
      { idioma: 'en', type: 'application/x-subrip', body: '1\n00:00:01,000 --> 00:00:02,000\nHello\n' },
    ]);
    expect(output).toEqual({
      saved: ['en'],
      failures: [{ idioma: 'fr', fileName: 'charla.fr.srt', status: 400, type: 'invalid-subtitles', detail: 'line 3: malformed timing «00:01:xx,000 --> 00:01:02,000» (expected such as «00:00:01,000 --> 00:00:04,000»)' }],
    });
  });
});
