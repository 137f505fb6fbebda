import { useEffect, useLayoutEffect, useRef, type ComponentProps, type ReactNode } from 'react';
import { AspectRatio, Paper } from '@mantine/core';
import { useActorRef } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { playbackMachine } from '../../../machines/playback/playback.machine.ts';
import { appLabels } from '../../components/app-labels.ts';
import type { Video } from './videos.queries.ts';

export interface VideoPlayerProps {
  video: Pick<Video, 'id' | 'titulo' | 'urlVideo' | 'urlThumbnail' | 'posicion'>;
  /** The playback machine with `savePosition` provided (the app's, or a test double); the player supplies `seek`. */
  logic: typeof playbackMachine;
}

type PlaybackActorRef = ActorRefFrom<typeof playbackMachine>;

/**
 * The native player (keyboard accessible by its own controls), hosting the playback machine: it
 * reports the media's events, moves the media when the machine resumes, and tells the machine when
 * the page goes away or is hidden ('page.leave': unmount, pagehide, visibilitychange to hidden).
 */
export function VideoPlayer({ video, logic }: VideoPlayerProps) {
  const mediaRef = useRef<HTMLVideoElement>(null);
  const actorHolder = useRef<PlaybackActorRef | null>(null);

  // Declared before useActorRef on purpose: on unmount React runs effect clean-ups in declaration
  // order, so 'page.leave' reaches the machine before @xstate/react stops it.
  useEffect(() => {
    const leave = () => actorHolder.current?.send({ type: 'page.leave' });
    const onVisibilityChange = () => {
      if (document.visibilityState === 'hidden') leave();
    };
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => {
      window.removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', onVisibilityChange);
      leave();
    };
  }, []);

  const actorRef = useActorRef(
    logic.provide({
      actions: {
        seek: (_, { seconds }) => {
          if (mediaRef.current) mediaRef.current.currentTime = seconds;
        },
      },
    }),
    { input: { videoId: video.id, posicion: video.posicion } },
  );
  useLayoutEffect(() => {
    actorHolder.current = actorRef;
  }, [actorRef]);

  const send = actorRef.send;
  return (
    <PlayerFrame aria-label={appLabels.player}>
      <video
        ref={mediaRef}
        controls
        playsInline
        preload="metadata"
        poster={video.urlThumbnail ?? undefined}
        src={video.urlVideo}
        aria-label={video.titulo}
        // A block, as the cards' pictures: inline, it left a line's descender (7 px) of black under it.
        style={MEDIA_STYLE}
        onLoadedMetadata={(event) => send({ type: 'media.loaded', duration: event.currentTarget.duration })}
        onSeeked={() => send({ type: 'media.seeked' })}
        onPlaying={() => send({ type: 'media.play' })}
        // At the end the media pauses, then ends: the end is reported once, as 'media.ended'.
        onPause={(event) => {
          if (!event.currentTarget.ended) send({ type: 'media.pause', position: event.currentTarget.currentTime });
        }}
        onTimeUpdate={(event) => send({ type: 'media.time', position: event.currentTarget.currentTime })}
        onEnded={() => send({ type: 'media.ended' })}
      />
    </PlayerFrame>
  );
}

/** The player's picture fills its frame, letterboxed in black. */
const MEDIA_STYLE = { display: 'block', width: '100%', height: '100%', objectFit: 'contain', background: 'black' } as const;

/**
 * The player's frame: 16:9, at most 70 % of the window's height on wide screens (centred), so the
 * title shows below it.
 */
function PlayerFrame({ children, ...props }: { children: ReactNode } & Omit<ComponentProps<'section'>, 'style' | 'ref'>) {
  return (
    <Paper component="section" radius="md" shadow="sm" bg="black" maw="calc(70vh * 16 / 9)" mx="auto" style={{ overflow: 'hidden' }} {...props}>
      <AspectRatio ratio={16 / 9}>{children}</AspectRatio>
    </Paper>
  );
}
