import { useId, useState } from 'react';
import { Button, Chip, CloseButton, Group, Popover, Rating, Skeleton, Stack, Text } from '@mantine/core';
import { IconCalendar, IconChevronDown, IconHeart, IconStar, IconSubtitles } from '@tabler/icons-react';
import type { Etiqueta } from '../../../machines/tag-filter/tag-filter.types.ts';
import type {
  FilterName,
  ScoreFilter,
  SubtitlesFilter,
  UploadDateFilter,
  UploadPeriod,
  VideoFilters,
} from '../../../machines/video-filters/video-filters.types.ts';
import { appLabels } from '../../components/app-labels.ts';
import { formatUploadDate } from '../../lib/format/upload-date.ts';
import { lazyWithPreload } from '../../lib/lazy-with-preload.tsx';
import { libraryMessages } from '../../lib/messages.ts';
import { popoverTransition, usePopoverOverlay } from './popover-transition.ts';
import { TagFilterPopover } from './tag-filter-popover.tsx';
import { TagStrip } from './tag-strip.tsx';

export interface FilterChipsProps {
  /** The filters in effect. */
  filters: VideoFilters;
  /** Every tag (the tag popover and the strip). */
  tags: readonly Etiqueta[];
  /** A chip changed some filters (send 'filters.set'). */
  onChange: (filters: Partial<VideoFilters>) => void;
  /** A chip's clear control (send 'filters.clear'). */
  onClear: (filter: FilterName) => void;
  /** While the filters are being restored. */
  disabled?: boolean;
  /** For the 'es despues de' day on the chip (the browser's language by default). */
  locale?: string;
  /** Hide the strip of tags under the chips. */
  withTagStrip?: boolean;
  /** The Subtítulos chip (administrators, R-LIB-26). */
  withSubtitlesFilter?: boolean;
}

const SUBTITLE_OPTIONS: ReadonlyArray<{ value: SubtitlesFilter; label: string }> = [
  { value: 'con', label: libraryMessages.withSubtitles },
  { value: 'sin', label: libraryMessages.withoutSubtitles },
];

/** The subtitles chip's text: 'Subtítulos', or the option chosen. */
export function subtitlesLabel(filter: SubtitlesFilter | null): string {
  return SUBTITLE_OPTIONS.find((option) => option.value === filter)?.label ?? libraryMessages.subtitlesChip;
}

const PERIODS: ReadonlyArray<{ period: UploadPeriod; label: string }> = [
  { period: 'tw', label: libraryMessages.uploadDateThisWeek },
  { period: 'tm', label: libraryMessages.uploadDateThisMonth },
  { period: 'l6m', label: libraryMessages.uploadDateLast6Months },
  { period: 'ty', label: libraryMessages.uploadDateThisYear },
];

/** The upload-date chip's text for a filter. */
export function uploadDateLabel(filter: UploadDateFilter | null, locale?: string): string {
  if (!filter) return libraryMessages.uploadDateChip;
  if ('period' in filter) return PERIODS.find((entry) => entry.period === filter.period)!.label;
  const day = (date: string) => formatUploadDate(`${date}T12:00:00`, locale);
  if ('after' in filter) return libraryMessages.uploadDateAfterDay(day(filter.after));
  return `${day(filter.from)} – ${day(filter.to)}`;
}

/** The score chip's text for a filter. */
export function scoreLabel(filter: ScoreFilter | null): string {
  if (!filter) return libraryMessages.scoreChip;
  if (filter.operator === 'gte') return libraryMessages.scoreAtLeast(filter.stars);
  if (filter.operator === 'lte') return libraryMessages.scoreAtMost(filter.stars);
  return libraryMessages.scoreExactly(filter.stars);
}

/** The calendar's code comes when the upload-date popover first opens (upload-date-picker.tsx). */
const UploadDatePicker = lazyWithPreload(() => import('./upload-date-picker.tsx').then((module) => module.UploadDatePicker));
/** About the calendar's size while its code arrives, so the popover does not jump. */
const CALENDAR_PLACEHOLDER = { width: 252, height: 270 };

const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

/** A chip that opens a popover, and its clear control when its filter is set. */
function PopoverChip({
  label,
  icon,
  active,
  disabled,
  clearLabel,
  onClear,
  opened,
  setOpened,
  title,
  children,
}: {
  label: string;
  icon: React.ReactNode;
  active: boolean;
  disabled: boolean;
  clearLabel: string;
  onClear: () => void;
  opened: boolean;
  setOpened: (opened: boolean) => void;
  title: string;
  children: React.ReactNode;
}) {
  const titleId = useId();
  const overlay = usePopoverOverlay();
  return (
    <Group gap={2} wrap="nowrap">
      <Popover
        {...overlay}
        opened={opened}
        onDismiss={() => setOpened(false)}
        position="bottom-start"
        shadow="md"
        trapFocus
        returnFocus
        transitionProps={popoverTransition}
      >
        <Popover.Target>
          <Button
            variant={active ? 'light' : 'default'}
            radius="xl"
            size="sm"
            disabled={disabled}
            leftSection={icon}
            rightSection={<IconChevronDown size={14} aria-hidden />}
            onClick={() => setOpened(!opened)}
          >
            {label}
          </Button>
        </Popover.Target>
        <Popover.Dropdown aria-labelledby={titleId}>
          <Stack gap="xs">
            <Text id={titleId} fw={600}>
              {title}
            </Text>
            {children}
          </Stack>
        </Popover.Dropdown>
      </Popover>
      {active && <CloseButton size="sm" radius="xl" disabled={disabled} aria-label={clearLabel} onClick={onClear} />}
    </Group>
  );
}

/** Upload date (R-LIB-9): Esta semana, Este mes, Últimos 6 meses, Este año, or 'es despues de' a day. */
function UploadDateChip({ filter, disabled, locale, onChange, onClear }: {
  filter: UploadDateFilter | null;
  disabled: boolean;
  locale: string | undefined;
  onChange: (filter: UploadDateFilter) => void;
  onClear: () => void;
}) {
  const [opened, setOpenedState] = useState(false);
  const [choosingDay, setChoosingDay] = useState(false);
  const setOpened = (next: boolean) => {
    setOpenedState(next);
    if (next) {
      setChoosingDay(filter !== null && 'after' in filter);
      // A day may be chosen next: its calendar's code starts coming now.
      UploadDatePicker.preload().catch(() => {});
    }
  };
  const choose = (next: UploadDateFilter) => {
    setOpenedState(false);
    onChange(next);
  };
  const after = filter && 'after' in filter ? filter.after : null;
  return (
    <PopoverChip
      label={uploadDateLabel(filter, locale)}
      icon={<IconCalendar size={16} aria-hidden />}
      active={filter !== null}
      disabled={disabled}
      clearLabel={libraryMessages.clearUploadDateFilter}
      onClear={onClear}
      opened={opened}
      setOpened={setOpened}
      title={libraryMessages.uploadDateChip}
    >
      <Stack gap={2}>
        {PERIODS.map(({ period, label }) => (
          <Button
            key={period}
            variant={filter && 'period' in filter && filter.period === period ? 'light' : 'subtle'}
            color="dark"
            justify="flex-start"
            aria-pressed={Boolean(filter && 'period' in filter && filter.period === period)}
            onClick={() => choose({ period })}
          >
            {label}
          </Button>
        ))}
        <Button
          variant={after ? 'light' : 'subtle'}
          color="dark"
          justify="flex-start"
          aria-pressed={after !== null}
          aria-expanded={choosingDay}
          onClick={() => setChoosingDay(!choosingDay)}
        >
          {libraryMessages.uploadDateAfter}
        </Button>
      </Stack>
      {choosingDay && (
        <UploadDatePicker
          after={after}
          maxDate={today()}
          onChoose={(day) => choose({ after: day })}
          fallback={<Skeleton {...CALENDAR_PLACEHOLDER} aria-hidden />}
        />
      )}
    </PopoverChip>
  );
}

/** Score (R-LIB-10): 'Filtrar por puntuación', no Apply button — a star applies "this many or more". */
function ScoreChip({ filter, disabled, onChange, onClear }: {
  filter: ScoreFilter | null;
  disabled: boolean;
  onChange: (filter: ScoreFilter) => void;
  onClear: () => void;
}) {
  const [opened, setOpened] = useState(false);
  return (
    <PopoverChip
      label={scoreLabel(filter)}
      icon={<IconStar size={16} aria-hidden />}
      active={filter !== null}
      disabled={disabled}
      clearLabel={libraryMessages.clearScoreFilter}
      onClear={onClear}
      opened={opened}
      setOpened={setOpened}
      title={libraryMessages.scoreFilterTitle}
    >
      <Rating
        size="lg"
        value={filter?.stars ?? 0}
        // Mantine adds a radio for 0: here it is 'Cualquier puntuación', which removes the filter.
        getSymbolLabel={(stars) => (stars === 0 ? libraryMessages.anyScore : libraryMessages.scoreAtLeast(stars))}
        onChange={(stars) => {
          setOpened(false);
          if (stars >= 1 && stars <= 5) onChange({ operator: 'gte', stars: stars as ScoreFilter['stars'] });
          else if (filter) onClear();
        }}
      />
    </PopoverChip>
  );
}

/** Subtitles (R-LIB-26, administrators): 'Con subtítulos' or 'Sin subtítulos'. */
function SubtitlesChip({ filter, disabled, onChange, onClear }: {
  filter: SubtitlesFilter | null;
  disabled: boolean;
  onChange: (filter: SubtitlesFilter) => void;
  onClear: () => void;
}) {
  const [opened, setOpened] = useState(false);
  return (
    <PopoverChip
      label={subtitlesLabel(filter)}
      icon={<IconSubtitles size={16} aria-hidden />}
      active={filter !== null}
      disabled={disabled}
      clearLabel={libraryMessages.clearSubtitlesFilter}
      onClear={onClear}
      opened={opened}
      setOpened={setOpened}
      title={libraryMessages.subtitlesFilterTitle}
    >
      <Stack gap={2}>
        {SUBTITLE_OPTIONS.map(({ value, label }) => (
          <Button
            key={value}
            variant={filter === value ? 'light' : 'subtle'}
            color="dark"
            justify="flex-start"
            aria-pressed={filter === value}
            onClick={() => {
              setOpened(false);
              onChange(value);
            }}
          >
            {label}
          </Button>
        ))}
      </Stack>
    </PopoverChip>
  );
}

/**
 * The filter chips of the list (R-LIB-6): upload date, favourite, 'Etiqueta' with its popover, and
 * score; then the strip of tags. Props-driven: the host turns `onChange` / `onClear` into
 * 'filters.set' / 'filters.clear'.
 */
export function FilterChips({
  filters,
  tags,
  onChange,
  onClear,
  disabled = false,
  locale,
  withTagStrip = true,
  withSubtitlesFilter = false,
}: FilterChipsProps) {
  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="wrap">
        <UploadDateChip
          filter={filters.uploadDate}
          disabled={disabled}
          locale={locale}
          onChange={(uploadDate) => onChange({ uploadDate })}
          onClear={() => onClear('uploadDate')}
        />
        <Chip
          checked={filters.favorite === true}
          disabled={disabled}
          size="sm"
          variant="outline"
          icon={<IconHeart size={14} aria-hidden />}
          onChange={(checked) => onChange({ favorite: checked ? true : null })}
        >
          {appLabels.tabFavorites}
        </Chip>
        <TagFilterPopover
          tags={tags}
          appliedIds={filters.tagIds}
          disabled={disabled}
          onApply={(tagIds) => onChange({ tagIds })}
          onClear={() => onClear('tagIds')}
        />
        <ScoreChip
          filter={filters.score}
          disabled={disabled}
          onChange={(score) => onChange({ score })}
          onClear={() => onClear('score')}
        />
        {withSubtitlesFilter && (
          <SubtitlesChip
            filter={filters.subtitles}
            disabled={disabled}
            onChange={(subtitles) => onChange({ subtitles })}
            onClear={() => onClear('subtitles')}
          />
        )}
      </Group>
      {withTagStrip && (
        <TagStrip tags={tags} selectedIds={filters.tagIds} disabled={disabled} onChange={(tagIds) => onChange({ tagIds })} />
      )}
    </Stack>
  );
}
