import { useCallback, useEffect, useRef, useState, type FocusEvent } from 'react';
import { ActionIcon, Box, Chip, Group } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { components } from '../../../contract/openapi.gen.ts';
import { libraryMessages } from '../../lib/messages.ts';

type Etiqueta = components['schemas']['Etiqueta'];

/** R-LIB-16: the tag strip scrolls in steps of 300 px. */
export const TAG_STRIP_STEP_PX = 300;

export interface TagStripProps {
  tags: readonly Etiqueta[];
  /** The tag filter in effect. */
  selectedIds: readonly number[];
  /** The new tag filter after a tag was ticked or unticked (ticked tags are added at the end). */
  onChange: (ids: number[]) => void;
  disabled?: boolean;
}

/** Room an arrow takes over the row's end: the button (28 px) and its fade. */
const ARROW_ROOM_PX = 48;

type Side = 'back' | 'forward';

/**
 * Every tag in one row, as chips that add or remove the tag from the filter. When the row overflows,
 * an arrow over each end it can scroll towards scrolls it 300 px back or forward; an arrow lies over
 * the row (fading the chips under it) and goes at the end it has reached, so the chips never move when
 * the arrows come and go (R-LIB-16). An arrow that
 * goes while it has the focus hands it to the other one.
 */
export function TagStrip({ tags, selectedIds, onChange, disabled = false }: TagStripProps) {
  const viewport = useRef<HTMLDivElement>(null);
  const arrows = useRef<Record<Side, HTMLButtonElement | null>>({ back: null, forward: null });
  const focusNext = useRef<Side | null>(null);
  // Which arrows show: the row overflows and can still scroll that way.
  const [shown, setShown] = useState<Record<Side, boolean>>({ back: false, forward: false });

  const measure = useCallback(() => {
    const element = viewport.current;
    if (!element) return;
    const max = element.scrollWidth - element.clientWidth;
    const next = { back: max > 1 && element.scrollLeft > 1, forward: max > 1 && element.scrollLeft < max - 1 };
    const focused = element.ownerDocument.activeElement;
    if (!next.forward && next.back && focused === arrows.current.forward) focusNext.current = 'back';
    if (!next.back && next.forward && focused === arrows.current.back) focusNext.current = 'forward';
    setShown((current) => (current.back === next.back && current.forward === next.forward ? current : next));
  }, []);

  useEffect(() => {
    const side = focusNext.current;
    focusNext.current = null;
    if (side) arrows.current[side]?.focus();
  }, [shown]);

  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    if (typeof ResizeObserver === 'undefined') {
      measure();
      return;
    }
    // The observer reports the row's first size once it is laid out: measuring here as well would
    // lay the page out in the middle of React's work (the list's first render, a long task on phones).
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [measure, tags.length]);

  // The browser brings the focused chip's box (its hidden checkbox, at the chip's start) into view;
  // the whole chip, label and all, is what a keyboard user must see.
  const showFocusedChip = (event: FocusEvent<HTMLDivElement>) => {
    if (event.target instanceof HTMLInputElement) event.target.parentElement?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  };
  const scroll = (direction: -1 | 1) => viewport.current?.scrollBy({ left: direction * TAG_STRIP_STEP_PX, behavior: 'smooth' });
  const toggle = (id: number, checked: boolean) =>
    onChange(checked ? [...selectedIds.filter((other) => other !== id), id] : selectedIds.filter((other) => other !== id));
  const arrow = (side: Side) => (
    <Box
      pos="absolute"
      top={0}
      bottom={0}
      {...(side === 'back' ? { left: 0, pr: ARROW_ROOM_PX - 28 } : { right: 0, pl: ARROW_ROOM_PX - 28 })}
      style={{
        display: 'flex',
        alignItems: 'center',
        pointerEvents: 'none',
        background: `linear-gradient(to ${side === 'back' ? 'right' : 'left'}, var(--mantine-color-body) 60%, transparent)`,
      }}
    >
      <ActionIcon
        ref={(button: HTMLButtonElement | null) => {
          arrows.current[side] = button;
        }}
        variant="subtle"
        color="gray.8"
        aria-label={side === 'back' ? libraryMessages.scrollTagsBack : libraryMessages.scrollTagsForward}
        onClick={() => scroll(side === 'back' ? -1 : 1)}
        style={{ pointerEvents: 'auto' }}
      >
        {side === 'back' ? <IconChevronLeft size={18} aria-hidden /> : <IconChevronRight size={18} aria-hidden />}
      </ActionIcon>
    </Box>
  );

  if (tags.length === 0) return null;
  return (
    <Box pos="relative" role="group" aria-label={libraryMessages.tagStrip}>
      {shown.back && arrow('back')}
      <Box
        ref={viewport}
        onScroll={measure}
        onFocus={showFocusedChip}
        // A chip reached with the keyboard is scrolled clear of the arrows.
        style={{ overflowX: 'auto', scrollbarWidth: 'none', scrollBehavior: 'smooth', scrollPaddingInline: ARROW_ROOM_PX }}
      >
        <Group gap={6} wrap="nowrap" py={2}>
          {tags.map((tag) => (
            <Chip
              key={tag.id}
              size="sm"
              variant="outline"
              disabled={disabled}
              checked={selectedIds.includes(tag.id)}
              onChange={(checked) => toggle(tag.id, checked)}
              styles={{ label: { whiteSpace: 'nowrap' } }}
            >
              {tag.nombre}
            </Chip>
          ))}
        </Group>
      </Box>
      {shown.forward && arrow('forward')}
    </Box>
  );
}
