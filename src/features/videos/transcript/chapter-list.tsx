import { useId, useSyncExternalStore } from 'react';
import { Paper, Text, Title, UnstyledButton } from '@mantine/core';
import { transcriptMessages as t } from '../../../lib/messages.ts';
import type { PlayerBridge } from '../player/player-bridge.ts';
import { chapterAt, clockTime } from '../player/player-controls.tsx';
import type { Capitulo } from '../videos.queries.ts';

export interface ChapterListProps {
  chapters: readonly Capitulo[];
  bridge: PlayerBridge;
}

/** R-VID-27: 'Capítulos' beside the transcript, the one playing marked, each a button that seeks to its start. */
export function ChapterList({ chapters, bridge }: ChapterListProps) {
  const titleId = useId();
  const current = useSyncExternalStore(bridge.subscribeTime, () => chapterAt(chapters, bridge.getTime()));
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="md" p="sm" data-chapters>
      <Title order={2} fz="h4" id={titleId} mb="xs">
        {t.chapters}
      </Title>
      <ol style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {chapters.map((chapter) => {
          const playing = chapter === current;
          return (
            <li key={chapter.inicio}>
              <UnstyledButton
                aria-current={playing ? 'true' : undefined}
                onClick={() => bridge.seek(chapter.inicio)}
                w="100%"
                px="xs"
                py={6}
                style={{
                  display: 'flex',
                  gap: 12,
                  alignItems: 'baseline',
                  borderRadius: 4,
                  borderInlineStart: `3px solid ${playing ? 'var(--mantine-color-tao-filled)' : 'transparent'}`,
                  background: playing ? 'var(--mantine-color-tao-light)' : undefined,
                  fontWeight: playing ? 600 : undefined,
                }}
              >
                <Text component="span" size="sm" c="gray.7" style={{ fontVariantNumeric: 'tabular-nums', flex: 'none' }}>
                  {clockTime(chapter.inicio)}
                </Text>
                <Text component="span" size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {chapter.titulo}
                </Text>
              </UnstyledButton>
            </li>
          );
        })}
      </ol>
    </Paper>
  );
}
