import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ComponentProps, type ReactNode, type Ref, type RefObject } from 'react';
import { AspectRatio, Box, Button, Loader, Paper, Stack, Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { playbackMachine } from '../../../machines/playback/playback.machine.ts';
import { appLabels } from '../../components/app-labels.ts';
import { playerMessages } from '../../lib/messages.ts';
import { chooseMediaSource, mediaAbilities, type MediaSourceChoice } from './player/media-source.ts';
import { trackMode, type CaptionChoice } from './player/captions.ts';
import type { PlayerBridge } from './player/player-bridge.ts';
import { PlayerControls, type QualityLevel } from './player/player-controls.tsx';
import { useIdleControls } from './player/idle-controls.ts';
import { commandForKey, keyBelongsToTarget, type PlayerCommand } from './player/player-keys.ts';
import { afterPosterShown } from './player/after-poster-shown.ts';
import { parseStoryboard, type StoryboardFrame } from './player/storyboard.ts';
import { SubtitleTrack } from './player/subtitle-track.tsx';
import './player/captions.css';
import type { Cue } from './transcript/cues.ts';
import type { Capitulo, Subtitulo, Video } from './videos.queries.ts';

export interface VideoPlayerProps {
  video: Pick<Video, 'id' | 'titulo' | 'urlVideo' | 'urlThumbnail' | 'posicion'> & Partial<Pick<Video, 'urlHls' | 'urlStoryboard' | 'idiomasSubtitulos'>>;
  /** The playback machine with `savePosition` provided (the app's, or a test double); the player supplies `seek`, `reload` and `applyQuality`. */
  logic: typeof playbackMachine;
  /** R-VID-20: the video's subtitle tracks (GET /api/videos/{id}/subtitulos), once known. */
  subtitles?: readonly Subtitulo[];
  /** Which track shows and which the transcript reads (useCaptionChoice). */
  captions?: CaptionChoice;
  /** R-VID-26: the chapters, as marks and names on the seek bar. */
  chapters?: readonly Capitulo[];
  /** R-VID-28: the address's `?t=`, where playback starts (before any saved position). */
  startAt?: number;
  /** The page's link to the player: its position, cues and seeks (transcript, chapters, description). */
  bridge?: PlayerBridge;
}

type PlaybackActorRef = ActorRefFrom<typeof playbackMachine>;
/** The part of hls.js the player uses (its light build, loaded only here). */
type HlsInstance = InstanceType<typeof import('hls.js/light').default>;

/** The source for this browser, decided once: the <video> node and its `src` come with the first render. */
function initialSource(video: VideoPlayerProps['video']): MediaSourceChoice {
  const probe = typeof document === 'undefined' ? null : document.createElement('video');
  const abilities = probe ? mediaAbilities(probe) : { nativeHls: '', mse: false };
  return chooseMediaSource({ urlHls: video.urlHls ?? null, urlVideo: video.urlVideo }, abilities);
}

/**
 * The player (R-VID-9 … R-VID-16): one <video> node for the page's life, the source this browser
 * plays best (hls.js imported only when needed), the Spanish controls and shortcuts, and the
 * playback machine, which it tells about the media's events and which moves the media (seek, reload).
 */
export function VideoPlayer({ video, logic, subtitles = NO_SUBTITLES, captions, chapters = NO_CHAPTERS, startAt, bridge }: VideoPlayerProps) {
  const mediaRef = useRef<HTMLVideoElement>(null);
  const frameRef = useRef<HTMLElement | null>(null);
  // Menus, tooltips and the overlay open inside the player's region (a landmark, and what fullscreen
  // shows), found by a selector when they open: the element in state re-rendered the player in its first commit.
  const frameId = useId();
  const frameSelector = `[id="${frameId}"]`;
  const actorHolder = useRef<PlaybackActorRef | null>(null);
  const hlsRef = useRef<HlsInstance | null>(null);
  // A reload of media that was playing plays again once loaded ('Reintentar' is for watching), however many reloads it takes.
  const playAfterReload = useRef(false);
  const [source] = useState(() => initialSource(video));
  const [loads, setLoads] = useState(0);
  const [media, setMedia] = useState({ paused: true, currentTime: 0, duration: Number.NaN, volume: 1, muted: false, speed: 1 });
  const [fullscreen, setFullscreen] = useState(false);
  const [levels, setLevels] = useState<QualityLevel[]>([]);
  const [storyboard, setStoryboard] = useState<StoryboardFrame[]>([]);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [pipSupported] = useState(() => typeof document !== 'undefined' && document.pictureInPictureEnabled === true);

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
        // R-VID-16: hls.js is made again; the MP4 (or native HLS) element loads its source again.
        reload: () => {
          // Kept from the first reload on: a failed reload leaves the element paused.
          playAfterReload.current ||= mediaRef.current ? !mediaRef.current.paused : false;
          if (source.kind === 'hls.js') setLoads((count) => count + 1);
          else mediaRef.current?.load();
        },
        // R-VID-32: at once (hls.js flushes what it buffered of the other level); -1 gives it the choice back.
        applyQuality: (_, { level }) => {
          if (hlsRef.current) hlsRef.current.currentLevel = level;
        },
      },
    }),
    { input: { videoId: video.id, posicion: video.posicion, startAt: startAt ?? null } },
  );
  useLayoutEffect(() => {
    actorHolder.current = actorRef;
  }, [actorRef]);
  useLayoutEffect(() => {
    bridge?.attach(mediaRef.current);
    return () => bridge?.attach(null);
  }, [bridge]);
  const controlsCover = useControlsCover(frameRef);
  const idle = useIdleControls(frameRef, !media.paused);
  const captionLift = idle ? 0 : controlsCover.pixels;
  const send = actorRef.send;
  const state = useSelector(actorRef, (snapshot) =>
    snapshot.matches('failed') ? 'failed' : snapshot.matches('retrying') || snapshot.matches('reloading') || snapshot.matches({ ready: { media: 'buffering' } }) ? 'waiting' : 'other',
  );
  const quality = useSelector(actorRef, (snapshot) => snapshot.context.quality);
  const switchingQuality = useSelector(actorRef, (snapshot) => snapshot.matches({ ready: { quality: 'switching' } }));

  // R-VID-9: hls.js only where the browser needs it, in its own chunk, once the poster is shown.
  useEffect(() => {
    if (source.kind !== 'hls.js') return;
    let cancelled = false;
    let onPlay: (() => void) | null = null;
    // The element's own poster: a refreshed signed address must not make hls.js again.
    void afterPosterShown(mediaRef.current?.getAttribute('poster') ?? null)
      .then(() => (cancelled ? null : import('hls.js/light')))
      .then((module) => {
        const element = mediaRef.current;
        if (!module || cancelled || !element) return;
        const Hls = module.default;
        const before = element.paused;
        // ADR 0106: the lowest rendition's first segment arrives soonest; hls.js climbs from there.
        // No metadata cues: hls.js would add its own <track> to the <video> React renders (ADR 0121).
        const hls = new Hls({
          capLevelToPlayerSize: true,
          startLevel: 0,
          fragLoadPolicy: FRAGMENT_LOADING,
          enableID3MetadataCues: false,
          enableEmsgMetadataCues: false,
          enableDateRangeMetadataCues: false,
          maxMaxBufferLength: before ? PRELOAD_SECONDS : FULL_BUFFER_SECONDS,
        });
        hlsRef.current = hls;
        if (before) {
          onPlay = () => {
            (hls.config as { maxMaxBufferLength: number }).maxMaxBufferLength = FULL_BUFFER_SECONDS;
          };
          element.addEventListener('play', onPlay, { once: true });
        }
        hls.on(Hls.Events.MANIFEST_PARSED, (_event, data) => {
          setLevels(data.levels.map((entry, index) => ({ index, height: entry.height })).filter((entry) => entry.height > 0));
        });
        hls.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => send({ type: 'media.levelSwitched', level: data.level }));
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal) send({ type: 'media.error', network: data.type === Hls.ErrorTypes.NETWORK_ERROR });
        });
        hls.loadSource(source.url);
        hls.attachMedia(element);
      });
    return () => {
      cancelled = true;
      if (onPlay) mediaRef.current?.removeEventListener('play', onPlay);
      hlsRef.current?.destroy();
      hlsRef.current = null;
    };
  }, [source, loads, send]);

  // R-VID-15: the seek bar's previews.
  useEffect(() => {
    const url = video.urlStoryboard;
    if (!url) return;
    const controller = new AbortController();
    fetch(url, { signal: controller.signal })
      .then((response) => (response.ok ? response.text() : ''))
      .then((text) => setStoryboard(parseStoryboard(text, new URL(url, window.location.href).href)))
      .catch(() => setStoryboard([]));
    return () => controller.abort();
  }, [video.urlStoryboard]);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === frameRef.current && frameRef.current !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const publishCues = useCallback((language: string, cues: Cue[]) => bridge?.publishCues(language, cues), [bridge]);

  const run = (command: PlayerCommand) => {
    const element = mediaRef.current;
    if (!element) return;
    switch (command.type) {
      case 'toggle-play':
        if (element.paused) void element.play()?.catch(() => {});
        else element.pause();
        return;
      case 'seek-by': {
        const end = Number.isFinite(element.duration) ? element.duration : Number.POSITIVE_INFINITY;
        element.currentTime = Math.min(end, Math.max(0, element.currentTime + command.seconds));
        return;
      }
      case 'toggle-mute':
        element.muted = !element.muted;
        return;
      case 'toggle-fullscreen':
        if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => {});
        else void frameRef.current?.requestFullscreen?.().catch(() => {});
        return;
      case 'toggle-captions':
        // R-VID-21: off, or on again in the last language shown.
        if (subtitles.length > 0) captions?.toggle();
        return;
      case 'show-shortcuts':
        setShortcutsOpen(true);
        return;
    }
  };
  const runRef = useRef(run);
  useLayoutEffect(() => {
    runRef.current = run;
  });

  // R-VID-13: the shortcuts, when the player or the page's body has focus (never a field or menu's keys).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || keyBelongsToTarget(event.target, frameRef.current, event.key)) return;
      const command = commandForKey(event);
      if (!command) return;
      event.preventDefault();
      runRef.current(command);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const sync = (element: HTMLVideoElement) => {
    bridge?.publishTime(element.currentTime);
    setMedia({
      paused: element.paused,
      currentTime: element.currentTime,
      duration: element.duration,
      volume: element.volume,
      muted: element.muted,
      speed: element.playbackRate,
    });
  };

  return (
    <PlayerFrame id={frameId} aria-label={appLabels.player} ref={frameRef} fullscreen={fullscreen}>
      <Box style={{ position: 'relative', width: '100%', height: '100%', cursor: idle ? 'none' : undefined }}>
        <video
          ref={mediaRef}
          playsInline
          preload="metadata"
          poster={video.urlThumbnail ?? undefined}
          src={source.kind === 'hls.js' ? undefined : source.url}
          aria-label={video.titulo}
          // A block, as the cards' pictures: inline, it left a line's descender (7 px) of black under it.
          // Blink and WebKit lift their caption box by this much (captions.css); others move the cues (SubtitleTrack).
          style={{ ...MEDIA_STYLE, ['--caption-lift' as string]: `${captionLift}px` }}
          onClick={() => run({ type: 'toggle-play' })}
          onLoadedMetadata={(event) => {
            sync(event.currentTarget);
            send({ type: 'media.loaded', duration: event.currentTarget.duration });
            // Until it plays again: a reload may itself fail and be followed by another.
            if (playAfterReload.current) void event.currentTarget.play()?.catch(() => {});
          }}
          // The target of a seek is where the user is, even while its data cannot arrive (a reload goes there).
          onSeeking={(event) => {
            bridge?.publishTime(event.currentTarget.currentTime);
            send({ type: 'media.time', position: event.currentTarget.currentTime });
          }}
          onSeeked={() => send({ type: 'media.seeked' })}
          onPlaying={(event) => {
            playAfterReload.current = false;
            sync(event.currentTarget);
            send({ type: 'media.play' });
          }}
          onPlay={(event) => sync(event.currentTarget)}
          // At the end the media pauses, then ends: the end is reported once, as 'media.ended'.
          onPause={(event) => {
            sync(event.currentTarget);
            if (!event.currentTarget.ended) send({ type: 'media.pause', position: event.currentTarget.currentTime });
          }}
          onTimeUpdate={(event) => {
            sync(event.currentTarget);
            send({ type: 'media.time', position: event.currentTarget.currentTime });
          }}
          onDurationChange={(event) => sync(event.currentTarget)}
          onVolumeChange={(event) => sync(event.currentTarget)}
          onRateChange={(event) => sync(event.currentTarget)}
          onWaiting={() => send({ type: 'media.waiting' })}
          onStalled={(event) => {
            if (!event.currentTarget.paused) send({ type: 'media.waiting' });
          }}
          onError={(event) => {
            // hls.js reports its own failures; the element's are the MP4's (or native HLS's).
            if (source.kind === 'hls.js') return;
            const code = event.currentTarget.error?.code;
            send({ type: 'media.error', network: code === 2 });
          }}
          onEnded={(event) => {
            sync(event.currentTarget);
            send({ type: 'media.ended' });
          }}
        >
          {subtitles.map((subtitle) => (
            <SubtitleTrack
              key={subtitle.idioma}
              subtitle={subtitle}
              mode={trackMode(subtitle.idioma, captions?.captions ?? null)}
              bottomInset={idle ? 0 : controlsCover.fraction}
              onCues={publishCues}
            />
          ))}
        </video>
        {state === 'waiting' && (
          <Box style={{ ...CENTRED, pointerEvents: 'none' }} role="status" aria-label={playerMessages.buffering}>
            <Loader color="white" />
          </Box>
        )}
        {state === 'failed' && (
          <Stack style={{ ...CENTRED, background: 'rgba(0, 0, 0, 0.75)' }} role="alert" gap="sm">
            <Text c="white" fw={600} ta="center" px="md">
              {playerMessages.failed}
            </Text>
            <Button onClick={() => send({ type: 'retry' })} color="tao">
              {playerMessages.retry}
            </Button>
          </Stack>
        )}
        <PlayerControls
          {...media}
          idle={idle}
          fullscreen={fullscreen}
          levels={levels}
          adaptive={source.kind === 'hls.js'}
          level={quality}
          switchingLevel={switchingQuality}
          pipSupported={pipSupported}
          storyboard={storyboard}
          chapters={chapters}
          subtitles={subtitles}
          hasSubtitles={(video.idiomasSubtitulos?.length ?? 0) > 0}
          captionLanguage={captions?.captions ?? null}
          onCaptionLanguage={(language) => captions?.choose(language)}
          portalTarget={frameSelector}
          shortcutsOpen={shortcutsOpen}
          onShortcutsOpenChange={setShortcutsOpen}
          onTogglePlay={() => run({ type: 'toggle-play' })}
          onSeek={(seconds) => {
            if (mediaRef.current) mediaRef.current.currentTime = seconds;
            setMedia((now) => ({ ...now, currentTime: seconds }));
          }}
          onVolume={(volume) => {
            const element = mediaRef.current;
            if (!element) return;
            element.volume = volume;
            element.muted = volume === 0;
          }}
          onToggleMute={() => run({ type: 'toggle-mute' })}
          onSpeed={(speed) => {
            if (mediaRef.current) mediaRef.current.playbackRate = speed;
            setMedia((now) => ({ ...now, speed }));
          }}
          // R-VID-12, R-VID-32: -1 lets hls.js choose; a height is kept until the user changes it, reloads included.
          onLevel={(index) => send({ type: 'quality.choose', level: index })}
          onPictureInPicture={() => {
            if (document.pictureInPictureElement) void document.exitPictureInPicture().catch(() => {});
            else void mediaRef.current?.requestPictureInPicture().catch(() => {});
          }}
          onToggleFullscreen={() => run({ type: 'toggle-fullscreen' })}
        />
      </Box>
    </PlayerFrame>
  );
}

/**
 * Segments: hls.js's own timeouts, but two quick retries of a failed load instead of six growing to
 * 8 s (about 30 s), so a lost network reaches the playback machine's 1-2-4-s reloads, then 'Reintentar', soon.
 */
/** R-VID-31: before the first play only the first seconds are fetched (docs/decisions/0137-hls-buffer-before-play.md). */
const PRELOAD_SECONDS = 4;
/** hls.js's own ceiling once playing. */
const FULL_BUFFER_SECONDS = 600;

const FRAGMENT_LOADING = {
  default: {
    maxTimeToFirstByteMs: 10_000,
    maxLoadTimeMs: 120_000,
    timeoutRetry: { maxNumRetry: 4, retryDelayMs: 0, maxRetryDelayMs: 0 },
    errorRetry: { maxNumRetry: 2, retryDelayMs: 1000, maxRetryDelayMs: 2000 },
  },
};

const NO_SUBTITLES: readonly Subtitulo[] = [];
const NO_CHAPTERS: readonly Capitulo[] = [];

/**
 * How much of the picture the control bar covers from the bottom, in pixels and as a share of the
 * height (0 to 1), as the frame is resized (a phone, fullscreen): the captions sit just above it.
 */
function useControlsCover(frameRef: RefObject<HTMLElement | null>): { pixels: number; fraction: number } {
  const [cover, setCover] = useState({ pixels: 0, fraction: 0 });
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const controls = frame.querySelector<HTMLElement>('[data-player-controls]');
      const media = frame.querySelector('video');
      const height = media?.clientHeight ?? 0;
      if (!controls || height === 0) return;
      // The share in hundredths: a pixel's change does not move every cue again.
      const pixels = controls.offsetHeight;
      const fraction = Math.round((pixels / height) * 100) / 100;
      setCover((now) => (now.pixels === pixels && now.fraction === fraction ? now : { pixels, fraction }));
    };
    const observer = new ResizeObserver(measure);
    observer.observe(frame);
    const controls = frame.querySelector('[data-player-controls]');
    if (controls) observer.observe(controls);
    measure();
    return () => observer.disconnect();
  }, [frameRef]);
  return cover;
}

/** The player's picture fills its frame, letterboxed in black. */
const MEDIA_STYLE = { display: 'block', width: '100%', height: '100%', objectFit: 'contain', background: 'black' } as const;
const CENTRED = { position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', flexDirection: 'column' } as const;

/**
 * The player's frame: 16:9, at most 70 % of the window's height on wide screens (centred), so the
 * title shows below it; the whole window in fullscreen.
 */
function PlayerFrame({
  children,
  fullscreen,
  ref,
  ...props
}: { children: ReactNode; fullscreen: boolean; ref: Ref<HTMLElement> } & Omit<ComponentProps<'section'>, 'style' | 'ref'>) {
  return (
    <Paper component="section" ref={ref as Ref<HTMLDivElement>} radius="md" shadow="sm" bg="black" maw="calc(70vh * 16 / 9)" mx="auto" style={{ overflow: 'hidden' }} {...props}>
      <AspectRatio ratio={16 / 9} style={fullscreen ? { height: '100%', maxWidth: 'none' } : undefined}>
        {children}
      </AspectRatio>
    </Paper>
  );
}
