import { useCallback, useEffect, useRef, useState } from 'react';
import { ActionIcon, Box, Chip, Group } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { components } from '../../../contract/openapi.gen.ts';
import { libraryMessages } from '../../lib/messages.ts';

type Etiqueta = components['schemas']['Etiqueta'];

/** SPEC §2/§9: the tag strip scrolls in steps of 300 px. */
export const TAG_STRIP_STEP_PX = 300;

export interface TagStripProps {
  tags: readonly Etiqueta[];
  /** The tag filter in effect. */
  selectedIds: readonly number[];
  /** The new tag filter after a tag was ticked or unticked (ticked tags are added at the end). */
  onChange: (ids: number[]) => void;
  disabled?: boolean;
}

/**
 * Every tag in one row, as chips that add or remove the tag from the filter; the arrows scroll the
 * row 300 px back or forward and are disabled at either end (hidden when everything fits).
 */
export function TagStrip({ tags, selectedIds, onChange, disabled = false }: TagStripProps) {
  const viewport = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ overflow: false, atStart: true, atEnd: true });

  const measure = useCallback(() => {
    const element = viewport.current;
    if (!element) return;
    const max = element.scrollWidth - element.clientWidth;
    setEdges({ overflow: max > 1, atStart: element.scrollLeft <= 1, atEnd: element.scrollLeft >= max - 1 });
  }, []);

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

  const scroll = (direction: -1 | 1) => viewport.current?.scrollBy({ left: direction * TAG_STRIP_STEP_PX, behavior: 'smooth' });
  const toggle = (id: number, checked: boolean) =>
    onChange(checked ? [...selectedIds.filter((other) => other !== id), id] : selectedIds.filter((other) => other !== id));

  if (tags.length === 0) return null;
  return (
    <Group gap={4} wrap="nowrap" role="group" aria-label={libraryMessages.tagStrip}>
      {edges.overflow && (
        <ActionIcon variant="subtle" color="gray.8" aria-label={libraryMessages.scrollTagsBack} disabled={edges.atStart} onClick={() => scroll(-1)}>
          <IconChevronLeft size={18} aria-hidden />
        </ActionIcon>
      )}
      <Box
        ref={viewport}
        onScroll={measure}
        style={{ overflowX: 'auto', scrollbarWidth: 'none', flex: 1, minWidth: 0, scrollBehavior: 'smooth' }}
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
      {edges.overflow && (
        <ActionIcon variant="subtle" color="gray.8" aria-label={libraryMessages.scrollTagsForward} disabled={edges.atEnd} onClick={() => scroll(1)}>
          <IconChevronRight size={18} aria-hidden />
        </ActionIcon>
      )}
    </Group>
  );
}
