import { useState, type ReactNode } from 'react';
import { ActionIcon, Box, Group, Kbd, Menu, Modal, Slider, Table, Text } from '@mantine/core';
import { HoverTooltip } from '../../../components/hover-tooltip.tsx';
import {
  IconBadgeCc,
  IconBadgeCcFilled,
  IconCheck,
  IconGauge,
  IconKeyboard,
  IconMaximize,
  IconMinimize,
  IconPictureInPicture,
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
  IconSettings,
  IconVolume,
  IconVolumeOff,
} from '@tabler/icons-react';
import { playerMessages as t } from '../../../lib/messages.ts';
import { PLAYER_SHORTCUTS } from './player-keys.ts';
import { frameAt, type StoryboardFrame } from './storyboard.ts';
import type { Capitulo, Subtitulo } from '../videos.queries.ts';

const NONE: readonly never[] = [];

/** R-VID-26: a chapter's start as a thin bar across the seek bar's track, visible on either side of the thumb. */
const CHAPTER_MARK_STYLES = {
  mark: {
    width: 3,
    height: 'calc(var(--slider-size) + 4px)',
    borderRadius: 1,
    border: 'none',
    backgroundColor: 'white',
    boxShadow: '0 0 0 1px rgba(0, 0, 0, 0.7)',
    transform: 'translate(calc(var(--slider-size) / 2 - 1.5px), -2px)',
  },
} as const;

/** R-VID-32: "Cambiando a 720p", just above the bar's right end (where 'Calidad' is). */
const QUALITY_STATUS_STYLE = {
  position: 'absolute',
  right: 8,
  bottom: 'calc(100% + 6px)',
  padding: '2px 8px',
  borderRadius: 4,
  background: 'rgba(0, 0, 0, 0.8)',
  color: 'white',
  fontSize: 'var(--mantine-font-size-xs)',
  pointerEvents: 'none',
} as const;

/** R-VID-11: the speeds the menu offers. */
export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** 83 → "1:23", 3723 → "1:02:03". */
export function clockTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** R-VID-26: the chapter playing at `seconds` (the last one started), or null. */
export function chapterAt(chapters: readonly Capitulo[], seconds: number): Capitulo | null {
  let found: Capitulo | null = null;
  for (const chapter of chapters) {
    if (chapter.inicio > seconds) break;
    found = chapter;
  }
  return found;
}

const speedLabel = (speed: number) => (speed === 1 ? t.speedNormal : String(speed).replace('.', ','));

export interface QualityLevel {
  /** hls.js level index. */
  index: number;
  height: number;
}

export interface PlayerControlsProps {
  paused: boolean;
  currentTime: number;
  duration: number;
  volume: number;
  muted: boolean;
  speed: number;
  fullscreen: boolean;
  /** R-VID-30: faded out while the video plays untouched (still in the document, and back at any pointer move or key). */
  idle?: boolean;
  /** Levels of hls.js (empty: MP4 or native HLS, no quality menu). */
  levels: QualityLevel[];
  /** The source is adaptive (hls.js): the quality menu shows from the first render, with Automática until the levels are known. */
  adaptive?: boolean;
  /** The chosen level, -1 for Automática. */
  level: number;
  /** R-VID-32: hls.js is still moving to the chosen level (the playback machine's `ready.quality.switching`). */
  switchingLevel?: boolean;
  pipSupported: boolean;
  storyboard: StoryboardFrame[];
  /** R-VID-26: the video's chapters (ascending), as marks on the seek bar. */
  chapters?: readonly Capitulo[];
  /** R-VID-20: the subtitle tracks ('Subtítulos' menu when there is one). */
  subtitles?: readonly Subtitulo[];
  /** Whether the video has tracks, known before they load: the menu's button shows from the first render (no shift). */
  hasSubtitles?: boolean;
  /** The language shown, null for none. */
  captionLanguage?: string | null;
  onCaptionLanguage?: (language: string | null) => void;
  /** A selector of where menus, tooltips and the overlay attach (the player, also in fullscreen). */
  portalTarget: string | undefined;
  shortcutsOpen: boolean;
  onShortcutsOpenChange: (open: boolean) => void;
  onTogglePlay: () => void;
  onSeek: (seconds: number) => void;
  onVolume: (volume: number) => void;
  onToggleMute: () => void;
  onSpeed: (speed: number) => void;
  onLevel: (level: number) => void;
  onPictureInPicture: () => void;
  onToggleFullscreen: () => void;
}

// HoverTooltip mounts floating-ui on the first hover: mounted with the bar, each tooltip set state in the page's first commit.
function ControlButton({ label, onClick, children, portalTarget }: { label: string; onClick?: () => void; children: ReactNode; portalTarget: string | undefined }) {
  return (
    <HoverTooltip label={label} portalTarget={portalTarget}>
      <ActionIcon variant="transparent" color="white" size="lg" aria-label={label} onClick={onClick}>
        {children}
      </ActionIcon>
    </HoverTooltip>
  );
}

/** R-VID-10: the player's own controls, in Spanish, over the picture. */
export function PlayerControls(props: PlayerControlsProps) {
  const { paused, currentTime, duration, volume, muted, speed, fullscreen, levels, level, pipSupported, storyboard, portalTarget, adaptive = false } = props;
  const { chapters = NONE, subtitles = NONE, captionLanguage = null } = props;
  const total = Number.isFinite(duration) && duration > 0 ? duration : 0;
  const [pointer, setPointer] = useState<{ seconds: number; fraction: number } | null>(null);
  const [focused, setFocused] = useState(false);
  // The pointer's place, or (keyboard) the thumb's as the arrows move it.
  const hover = pointer ?? (focused && total > 0 ? { seconds: currentTime, fraction: Math.min(1, currentTime / total) } : null);
  const portal = { target: portalTarget };
  const preview = hover && storyboard.length > 0 ? frameAt(storyboard, hover.seconds) : null;
  const hoverChapter = hover ? chapterAt(chapters, hover.seconds) : null;
  // The first chapter starts at 0:00, under the thumb at the start: only the later ones are marked.
  const marks = total > 0 ? chapters.filter((chapter) => chapter.inicio > 0 && chapter.inicio < total).map((chapter) => ({ value: chapter.inicio })) : [];
  const shownSubtitle = subtitles.find((entry) => entry.idioma === captionLanguage);
  const currentHeight = levels.find((entry) => entry.index === level)?.height;
  const switching = props.switchingLevel === true && currentHeight !== undefined;
  const qualityLabel = currentHeight ? (switching ? t.qualitySwitching(currentHeight) : t.height(currentHeight)) : t.qualityAuto;

  return (
    <Box
      data-player-controls
      data-idle={props.idle ? '' : undefined}
      style={{
        position: 'absolute',
        left: 0,
        right: 0,
        bottom: 0,
        top: 'auto',
        height: 'auto',
        padding: '0 8px 4px',
        background: 'rgba(0, 0, 0, 0.65)',
        color: 'white',
        opacity: props.idle ? 0 : 1,
        transition: 'opacity 250ms ease',
      }}
    >
      <Box
        pos="relative"
        onMouseMove={(event) => {
          const box = event.currentTarget.getBoundingClientRect();
          const fraction = Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
          setPointer({ seconds: fraction * total, fraction });
        }}
        onMouseLeave={() => setPointer(null)}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
      >
        {hover && (preview || storyboard.length > 0 || hoverChapter) && (
          <Box
            data-storyboard-preview
            style={{ position: 'absolute', bottom: 18, left: `${hover.fraction * 100}%`, transform: 'translateX(-50%)', pointerEvents: 'none', textAlign: 'center' }}
          >
            {preview && (
              <div
                role="img"
                aria-label={clockTime(hover.seconds)}
                style={{
                  width: preview.width,
                  height: preview.height,
                  backgroundImage: `url("${preview.image}")`,
                  backgroundPosition: `-${preview.x}px -${preview.y}px`,
                  border: '1px solid white',
                  borderRadius: 4,
                }}
              />
            )}
            {hoverChapter && (
              <Text data-chapter-name size="xs" fw={600} c="white" bg="rgba(0,0,0,0.8)" px={4} maw={220} truncate="end" style={{ borderRadius: 4, margin: '0 auto 2px' }}>
                {hoverChapter.titulo}
              </Text>
            )}
            <Text size="xs" c="white" bg="rgba(0,0,0,0.8)" px={4} style={{ display: 'inline-block', borderRadius: 4 }}>
              {clockTime(hover.seconds)}
            </Text>
          </Box>
        )}
        <Slider
          thumbLabel={t.seek}
          thumbValueText={(value) => {
            const chapter = chapterAt(chapters, value);
            return chapter ? t.positionInChapter(clockTime(value), clockTime(total), chapter.titulo) : t.position(clockTime(value), clockTime(total));
          }}
          marks={marks}
          styles={marks.length > 0 ? CHAPTER_MARK_STYLES : undefined}
          min={0}
          max={total || 1}
          step={1}
          value={Math.min(currentTime, total || 1)}
          onChange={props.onSeek}
          label={null}
          size="sm"
          color="tao"
          disabled={total === 0}
          thumbSize={16}
          py={6}
        />
      </Box>
      {/* R-VID-32: always in the document, so that a screen reader announces the text as it appears. */}
      <Box role="status" style={switching ? QUALITY_STATUS_STYLE : { position: 'absolute', width: 1, height: 1, overflow: 'hidden' }}>
        {switching ? t.qualitySwitching(currentHeight) : ''}
      </Box>
      {/* A 24-px circle round the seek bar's thumb stays clear of these buttons (WCAG 2.2 target size). */}
      <Group gap={4} wrap="nowrap" justify="space-between" mt={14}>
        <Group gap={4} wrap="nowrap">
          <ControlButton portalTarget={portalTarget} label={paused ? t.play : t.pause} onClick={props.onTogglePlay}>
            {paused ? <IconPlayerPlayFilled size={20} /> : <IconPlayerPauseFilled size={20} />}
          </ControlButton>
          <ControlButton portalTarget={portalTarget} label={muted ? t.unmute : t.mute} onClick={props.onToggleMute}>
            {muted ? <IconVolumeOff size={20} /> : <IconVolume size={20} />}
          </ControlButton>
          <Slider
            aria-label={t.volume}
            thumbLabel={t.volume}
            thumbValueText={(value) => `${Math.round(value * 100)} %`}
            min={0}
            max={1}
            step={0.05}
            value={muted ? 0 : volume}
            onChange={props.onVolume}
            label={null}
            size="xs"
            color="white"
            w={72}
            mx={12}
            visibleFrom="sm"
          />
          <Text size="sm" c="white" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }} ml={4}>
            {clockTime(currentTime)} / {clockTime(total)}
          </Text>
        </Group>
        <Group gap={2} wrap="nowrap">
          {(subtitles.length > 0 || props.hasSubtitles === true) && (
            <Menu position="top-end" withinPortal portalProps={portal} shadow="md" withInitialFocusPlaceholder={false} floatingStrategy="fixed">
              <Menu.Target>
                <ActionIcon variant="transparent" color="white" size="lg" aria-label={`${t.subtitles}: ${shownSubtitle?.etiqueta ?? t.subtitlesOff}`}>
                  {shownSubtitle ? <IconBadgeCcFilled size={20} /> : <IconBadgeCc size={20} />}
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{t.subtitles}</Menu.Label>
                {[...subtitles.map((entry) => ({ idioma: entry.idioma as string | null, text: entry.etiqueta })), { idioma: null, text: t.subtitlesOff }].map((entry) => (
                  <Menu.Item
                    key={entry.idioma ?? ''}
                    lang={entry.idioma ?? undefined}
                    aria-current={entry.idioma === captionLanguage ? true : undefined}
                    leftSection={<IconCheck size={14} style={{ visibility: entry.idioma === captionLanguage ? 'visible' : 'hidden' }} aria-hidden />}
                    onClick={() => props.onCaptionLanguage?.(entry.idioma)}
                  >
                    {entry.text}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
          <Menu position="top-end" withinPortal portalProps={portal} shadow="md" withInitialFocusPlaceholder={false} floatingStrategy="fixed">
            <Menu.Target>
              <ActionIcon variant="transparent" color="white" size="lg" aria-label={`${t.speed}: ${speedLabel(speed)}`}>
                <IconGauge size={20} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {SPEEDS.map((value) => (
                <Menu.Item
                  key={value}
                  aria-current={value === speed ? true : undefined}
                  leftSection={<IconCheck size={14} style={{ visibility: value === speed ? 'visible' : 'hidden' }} aria-hidden />}
                  onClick={() => props.onSpeed(value)}
                >
                  {value === 1 ? `1 (${t.speedNormal})` : speedLabel(value)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          {(adaptive || levels.length > 0) && (
            <Menu position="top-end" withinPortal portalProps={portal} shadow="md" withInitialFocusPlaceholder={false} floatingStrategy="fixed">
              <Menu.Target>
                <ActionIcon variant="transparent" color="white" size="lg" aria-label={`${t.quality}: ${qualityLabel}`}>
                  <IconSettings size={20} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {[{ index: -1, text: t.qualityAuto }, ...[...levels].sort((a, b) => b.height - a.height).map((entry) => ({ index: entry.index, text: t.height(entry.height) }))].map(
                  (entry) => (
                    <Menu.Item
                      key={entry.index}
                      aria-current={entry.index === level ? true : undefined}
                      leftSection={<IconCheck size={14} style={{ visibility: entry.index === level ? 'visible' : 'hidden' }} aria-hidden />}
                      rightSection={
                        switching && entry.index === level ? (
                          <Text size="xs" c="dimmed">
                            {t.qualitySwitchingShort}
                          </Text>
                        ) : undefined
                      }
                      onClick={() => props.onLevel(entry.index)}
                    >
                      {entry.text}
                    </Menu.Item>
                  ),
                )}
              </Menu.Dropdown>
            </Menu>
          )}
          {pipSupported && (
            <ControlButton portalTarget={portalTarget} label={t.pictureInPicture} onClick={props.onPictureInPicture}>
              <IconPictureInPicture size={20} />
            </ControlButton>
          )}
          <Box visibleFrom="sm">
            <ControlButton portalTarget={portalTarget} label={t.shortcuts} onClick={() => props.onShortcutsOpenChange(true)}>
              <IconKeyboard size={20} />
            </ControlButton>
          </Box>
          <ControlButton portalTarget={portalTarget} label={fullscreen ? t.exitFullscreen : t.fullscreen} onClick={props.onToggleFullscreen}>
            {fullscreen ? <IconMinimize size={20} /> : <IconMaximize size={20} />}
          </ControlButton>
        </Group>
      </Group>
      <Modal opened={props.shortcutsOpen} onClose={() => props.onShortcutsOpenChange(false)} title={t.shortcuts} portalProps={portal} centered>
        <Table>
          <Table.Tbody>
            {PLAYER_SHORTCUTS.map(({ keys, description }) => (
              <Table.Tr key={description}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {keys.map((key, index) => (
                    <span key={key}>
                      {index > 0 && ' / '}
                      <Kbd>{key}</Kbd>
                    </span>
                  ))}
                </Table.Td>
                <Table.Td>{description}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Modal>
    </Box>
  );
}
