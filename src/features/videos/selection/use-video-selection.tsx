import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '@mantine/core';
import { IconCheckbox } from '@tabler/icons-react';
import type { QueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { lazyWithPreload } from '../../../lib/lazy-with-preload.tsx';
import { bulkMessages } from '../../../lib/messages.ts';
import type { ToastStore } from '../../../lib/toasts.ts';
import type { Etiqueta, Video } from '../videos.queries.ts';
import { createVideoSelectionLogic } from './selection.actors.ts';

// The bar and its dialogs are an administrator's, and only once they select: out of the list's first screen.
const SelectionBar = lazyWithPreload(() => import('./selection-bar.tsx').then((module) => module.SelectionBar));

/** Where an Escape is the field's or a popup's own (clearing a search, closing a menu), not the mode's. */
const OWN_ESCAPE = '[role="dialog"], [role="menu"], [role="listbox"], textarea, input:not([type="checkbox"]):not([type="radio"])';

/**
 * The list's selection mode for administrators (R-ADM-15 … R-ADM-19): the selection machine with
 * the app's batch writes and toasts, the 'Seleccionar' toggle, what each card needs for its checkbox,
 * and the bar (mounted from the first selection on, so entering the mode again is instant).
 */
export function useVideoSelection({ queryClient, toasts, videos, tags }: { queryClient: QueryClient; toasts: ToastStore; videos: readonly Video[]; tags: readonly Etiqueta[] }) {
  const [logic] = useState(() => createVideoSelectionLogic(queryClient, toasts));
  const actorRef = useActorRef(logic);
  const selecting = useSelector(actorRef, (snapshot) => snapshot.hasTag('selecting'));
  const busy = useSelector(actorRef, (snapshot) => snapshot.hasTag('busy'));
  const idle = useSelector(actorRef, (snapshot) => snapshot.matches({ on: 'none' }) || snapshot.matches({ on: 'some' }));
  const selected = useSelector(actorRef, (snapshot) => snapshot.context.selected);
  const [mounted, setMounted] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  // R-ADM-15: Escape leaves the mode, unless a dialog, a menu or a text field takes it.
  useEffect(() => {
    if (!selecting || !idle) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (event.target instanceof Element && event.target.closest(OWN_ESCAPE)) return;
      actorRef.send({ type: 'selection.cancel' });
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [selecting, idle, actorRef]);

  // Leaving the mode takes away the checkboxes and the bar: focus there goes back to 'Seleccionar'.
  const wasSelecting = useRef(selecting);
  useEffect(() => {
    if (wasSelecting.current && !selecting) {
      const active = document.activeElement;
      if (!active || active === document.body || active.closest('[data-video-selection]')) toggleRef.current?.focus();
    }
    wasSelecting.current = selecting;
  }, [selecting]);

  const onSelect = useCallback((video: Video) => actorRef.send({ type: 'selection.toggle', id: video.id }), [actorRef]);

  const toggle = (
    <Button
      ref={toggleRef}
      variant={selecting ? 'filled' : 'default'}
      leftSection={<IconCheckbox size={16} aria-hidden />}
      aria-pressed={selecting}
      disabled={busy}
      onMouseEnter={() => void SelectionBar.preload()}
      onFocus={() => void SelectionBar.preload()}
      onClick={() => {
        setMounted(true);
        actorRef.send({ type: selecting ? 'selection.cancel' : 'selection.start' });
      }}
    >
      {bulkMessages.select}
    </Button>
  );

  return {
    selecting,
    busy,
    selected,
    onSelect,
    toggle,
    bar: mounted ? <SelectionBar actorRef={actorRef} videos={videos} tags={tags} /> : null,
  };
}
