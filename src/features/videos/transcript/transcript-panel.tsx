import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Button, Group, NativeSelect, Paper, ScrollArea, Text, TextInput, Title } from '@mantine/core';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { transcriptMessages as t } from '../../../lib/messages.ts';
import type { CaptionChoice } from '../player/captions.ts';
import type { PlayerBridge } from '../player/player-bridge.ts';
import { TimedLine } from './timed-line.tsx';
import type { Subtitulo } from '../videos.queries.ts';
import { activeCueIndex, matchingCues, transcriptText, type Cue } from './cues.ts';

/** After the user scrolls, touches or presses a key in the list, it is left where they put it this long. */
export const FOLLOW_PAUSE_MS = 5000;

const NO_CUES: Cue[] = [];

/** A file name from the video's title (no characters a file system refuses). */
export function downloadName(title: string, language: string, extension: 'vtt' | 'txt'): string {
  const base = title.replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ').replace(/\s+/g, ' ').trim() || 'transcripcion';
  return `${base}.${language}.${extension}`;
}

export interface TranscriptPanelProps {
  subtitles: readonly Subtitulo[];
  captions: CaptionChoice;
  bridge: PlayerBridge;
  videoTitle: string;
}

/**
 * R-VID-22 … R-VID-25: the transcript of a video's page: every cue of the chosen language as the
 * browser parsed it from the player's own `<track>` (docs/decisions/0122-transcript-from-the-player-track.md),
 * the one playing highlighted and kept in view inside the panel, each a button that seeks there, a
 * search that ignores accents, and the downloads.
 */
export function TranscriptPanel({ subtitles, captions, bridge, videoTitle }: TranscriptPanelProps) {
  const titleId = useId();
  const language = captions.transcript;
  const subtitle = subtitles.find((entry) => entry.idioma === language) ?? null;
  const allCues = useSyncExternalStore(bridge.subscribeCues, bridge.getCues);
  const cues = (language !== null ? allCues[language] : undefined) ?? null;
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const list = cues ?? NO_CUES;
    const indexes = query.trim() === '' ? list.map((_, index) => index) : matchingCues(list, query);
    return indexes;
  }, [cues, query]);
  const active = useSyncExternalStore(bridge.subscribeTime, () => (cues ? activeCueIndex(cues, bridge.getTime()) : -1));
  const txt = useMemo(() => (cues ? `data:text/plain;charset=utf-8,${encodeURIComponent(transcriptText(cues))}` : null), [cues]);

  const viewport = useRef<HTMLDivElement>(null);
  const lastTouched = useRef(Number.NEGATIVE_INFINITY);
  const touched = () => {
    lastTouched.current = performance.now();
  };
  // Kept in view by scrolling the panel only (never the page), unless the user is reading elsewhere in it.
  useEffect(() => {
    const box = viewport.current;
    if (!box || active < 0 || performance.now() - lastTouched.current < FOLLOW_PAUSE_MS) return;
    const item = box.querySelector<HTMLElement>(`[data-cue="${active}"]`);
    if (!item) return;
    const top = item.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    const bottom = top + item.offsetHeight;
    if (top >= box.scrollTop && bottom <= box.scrollTop + box.clientHeight) return;
    box.scrollTo({ top: Math.max(0, top - box.clientHeight / 3) });
  }, [active]);

  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="md" p="sm" data-transcript>
      {/* As tall as the language select (size xs) from the first render: it appears once the tracks load. */}
      <Group justify="space-between" align="center" gap="xs" mb="xs" mih={30}>
        <Title order={2} fz="h4" id={titleId}>
          {t.title}
        </Title>
        {subtitles.length > 1 && (
          <NativeSelect
            aria-label={t.language}
            size="xs"
            value={language ?? ''}
            onChange={(event) => captions.chooseTranscript(event.currentTarget.value)}
            data={subtitles.map((entry) => ({ value: entry.idioma, label: entry.etiqueta }))}
          />
        )}
      </Group>
      <TextInput
        type="search"
        aria-label={t.search}
        placeholder={t.search}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        mb="xs"
      />
      <Text size="sm" c="gray.7" role="status" mb={4}>
        {cues === null ? t.loading : query.trim() === '' ? '' : shown.length === 0 ? t.noMatches(query.trim()) : t.matches(shown.length)}
      </Text>
      <ScrollArea.Autosize
        mah={{ base: 280, md: 420 }}
        type="auto"
        viewportRef={viewport}
        onWheel={touched}
        onTouchStart={touched}
        onKeyDown={touched}
        onPointerDown={touched}
      >
        <ol lang={language ?? undefined} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {(cues ?? NO_CUES).length > 0 &&
            shown.map((index) => {
              const cue = cues![index]!;
              const current = index === active;
              return (
                <li key={index} data-cue={index}>
                  <TimedLine seconds={cue.start} current={current} onSeek={(seconds) => bridge.seek(seconds)}>
                    {cue.text}
                  </TimedLine>
                </li>
              );
            })}
        </ol>
      </ScrollArea.Autosize>
      {subtitle && (
        <Group gap="xs" mt="sm">
          <Button component="a" href={subtitle.url} download={downloadName(videoTitle, subtitle.idioma, 'vtt')} variant="default" size="xs" leftSection={<IconDownload size={14} aria-hidden />}>
            {t.downloadVtt}
          </Button>
          {txt && (
            <Button component="a" href={txt} download={downloadName(videoTitle, subtitle.idioma, 'txt')} variant="default" size="xs" leftSection={<IconDownload size={14} aria-hidden />}>
              {t.downloadTxt}
            </Button>
          )}
        </Group>
      )}
    </Paper>
  );
}
