import { useId, useSyncExternalStore } from 'react';
import { Paper, Title } from '@mantine/core';
import { transcriptMessages as t } from '../../../lib/messages.ts';
import type { PlayerBridge } from '../player/player-bridge.ts';
import { chapterAt } from '../player/player-controls.tsx';
import { TimedLine } from './timed-line.tsx';
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
              <TimedLine seconds={chapter.inicio} current={playing} onSeek={(seconds) => bridge.seek(seconds)}>
                {chapter.titulo}
              </TimedLine>
            </li>
          );
        })}
      </ol>
    </Paper>
  );
}
