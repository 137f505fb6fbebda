import { useEffect, useRef, useState, type AnchorHTMLAttributes, type Ref } from 'react';
import { Badge, Button, Container, Group, SimpleGrid, Stack, Text, Title, type BadgeProps } from '@mantine/core';
import { IconArrowLeft, IconLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createLink } from '@tanstack/react-router';
import type { playbackMachine } from '../../../machines/playback/playback.machine.ts';
import type { ToastInput } from '../../../machines/toast/toast.types.ts';
import type { videoOpinionMachine } from '../../../machines/video-opinion/video-opinion.machine.ts';
import { appLabels } from '../../components/app-labels.ts';
import { ButtonLink } from '../../components/router-links.tsx';
import { formatUploadDate } from '../../lib/format/upload-date.ts';
import { libraryMessages, transcriptMessages } from '../../lib/messages.ts';
import { useAfterFirstRender } from '../../lib/use-after-first-render.ts';
import { Description } from './description.tsx';
import { useCaptionChoice } from './player/captions.ts';
import { createPlayerBridge, type PlayerBridge } from './player/player-bridge.ts';
import { ChapterList } from './transcript/chapter-list.tsx';
import { TranscriptPanel } from './transcript/transcript-panel.tsx';
import { VideoOpinionControls } from './video-opinion-controls.tsx';
import { VideoPlayer } from './video-player.tsx';
import { subtitlesQuery, type Video } from './videos.queries.ts';

type BadgeAnchorProps = BadgeProps &
  Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof BadgeProps | 'color'> & { ref?: Ref<HTMLAnchorElement> };

function MantineBadgeAnchor(props: BadgeAnchorProps) {
  return <Badge component="a" {...props} />;
}

/** A tag as a router link (TanStack Router `createLink`). */
const BadgeLink = createLink(MantineBadgeAnchor);

export interface VideoDetailProps {
  video: Video;
  /** The rating and favourite machine, with the app's writes and toasts (or test doubles). */
  opinionLogic: typeof videoOpinionMachine;
  /** The playback machine, with the app's position saving (or a test double). */
  playbackLogic: typeof playbackMachine;
  /** PATCH /visto true for this video. */
  markSeen: (id: number) => void;
  /** R-VID-28: the address's `?t=` (seconds). */
  startAt?: number;
  /** Shows a toast (the app's store): 'Copiar enlace en este momento' says what it did. */
  notify?: (toast: ToastInput) => void;
}

/** R-VID-28: the page's address at a second, as 'Copiar enlace en este momento' shares it. */
export function momentUrl(origin: string, id: number, seconds: number): string {
  return `${origin}/videos/${id}?t=${Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0))}`;
}

/** A new `?t=` while the page is open (a link to another moment of the same video) seeks there. */
function useSeekOnNewStart(bridge: PlayerBridge, startAt: number | undefined) {
  const first = useRef(startAt);
  useEffect(() => {
    if (startAt === undefined || startAt === first.current) return;
    first.current = undefined;
    bridge.seek(startAt);
  }, [bridge, startAt]);
}

async function copyMoment(bridge: PlayerBridge, id: number, notify: VideoDetailProps['notify']) {
  try {
    await navigator.clipboard.writeText(momentUrl(window.location.origin, id, bridge.getTime()));
    notify?.({ kind: 'success', message: transcriptMessages.linkCopied });
  } catch {
    notify?.({ kind: 'error', message: transcriptMessages.linkNotCopied });
  }
}

/** R-VID-4: opening a video that is not yet seen marks it seen, once (React's development double effects included). */
function useMarkSeenOnce(video: Pick<Video, 'id' | 'visto'>, markSeen: (id: number) => void) {
  const marked = useRef<number | null>(null);
  useEffect(() => {
    if (video.visto || marked.current === video.id) return;
    marked.current = video.id;
    markSeen(video.id);
  }, [video.id, video.visto, markSeen]);
}

/**
 * The video detail page (R-VID-1): 'Volver' to the list as it was (the layout
 * retains its filters), the player, the title, the upload date in the user's format, the rating
 * and favourite, the tags (each links to the list filtered by it) and the long description,
 * formatted and sanitized. Render it with `key={video.id}`: its machines start from the video.
 */
export function VideoDetail({ video, opinionLogic, playbackLogic, markSeen, startAt, notify }: VideoDetailProps) {
  useMarkSeenOnce(video, markSeen);
  const [bridge] = useState(createPlayerBridge);
  useSeekOnNewStart(bridge, startAt);
  const captions = useCaptionChoice(video.idiomasSubtitulos);
  const { data: subtitles = [] } = useQuery(subtitlesQuery(video));
  const hasAside = video.capitulos.length > 0 || video.idiomasSubtitulos.length > 0;
  const uploaded = formatUploadDate(video.fechaAlta);
  // The tags and the sanitized description right after the rest, in slices, not in the page's
  // first long task.
  const restShown = useAfterFirstRender();

  return (
    <Container size="lg" py={{ base: 'sm', sm: 'lg' }} px={{ base: 'xs', sm: 'md' }} component="main">
      <ButtonLink to="/videos" variant="subtle" leftSection={<IconArrowLeft size={18} />} mb="sm" px="xs">
        {appLabels.back}
      </ButtonLink>
      <VideoPlayer video={video} logic={playbackLogic} subtitles={subtitles} captions={captions} chapters={video.capitulos} startAt={startAt} bridge={bridge} />
      {/* The player stays the first child whatever loads next (one <video> for the page's life). */}
      <SimpleGrid mt="md" cols={{ base: 1, md: hasAside ? 2 : 1 }} spacing="lg" verticalSpacing="lg">
        <Stack gap="sm" px={{ base: 4, sm: 0 }}>
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }} style={{ overflowWrap: 'anywhere' }}>{video.titulo}</Title>
          <Group justify="space-between" align="center" gap="sm" wrap="wrap">
            {uploaded && (
              <Text size="sm" c="gray.7">
                <time dateTime={video.fechaAlta}>{libraryMessages.uploadedOn(uploaded)}</time>
              </Text>
            )}
            <Group gap="xs" wrap="wrap">
              <VideoOpinionControls video={video} logic={opinionLogic} />
              <Button variant="subtle" size="compact-sm" leftSection={<IconLink size={16} aria-hidden />} onClick={() => void copyMoment(bridge, video.id, notify)}>
                {transcriptMessages.copyLink}
              </Button>
            </Group>
          </Group>
          {restShown && (
            <>
              {video.etiquetas.length > 0 && (
                <Group gap={6} component="ul" aria-label={libraryMessages.videoTags} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {video.etiquetas.map((tag) => (
                    <li key={tag.id}>
                      {/* The list filtered by this tag (`in:` with its id, as a card's tag does). */}
                      <BadgeLink to="/videos" search={{ tag: `in:${tag.id}` }} variant="light" color="tao" radius="sm" tt="none">
                        {tag.nombre}
                      </BadgeLink>
                    </li>
                  ))}
                </Group>
              )}
              <section aria-label={libraryMessages.videoDescription}>
                <Description
                  text={video.descripcion ?? video.descripcionCorta}
                  size="md"
                  style={{ overflowWrap: 'anywhere' }}
                  duration={video.duracion}
                  onSeek={(seconds) => bridge.seek(seconds)}
                />
              </section>
            </>
          )}
        </Stack>
        {hasAside && (
          <Stack gap="md">
            {restShown && video.capitulos.length > 0 && <ChapterList chapters={video.capitulos} bridge={bridge} />}
            {restShown && video.idiomasSubtitulos.length > 0 && (
              <TranscriptPanel subtitles={subtitles} captions={captions} bridge={bridge} videoTitle={video.titulo} />
            )}
          </Stack>
        )}
      </SimpleGrid>
    </Container>
  );
}
