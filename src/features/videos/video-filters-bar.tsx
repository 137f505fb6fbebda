import { useEffect, useState } from 'react';
import { CloseButton, Group, Stack, Tabs, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import type { Etiqueta } from '../../../machines/tag-filter/tag-filter.types.ts';
import { MAX_SEARCH_LENGTH, tabOf } from '../../../machines/video-filters/video-filters.ts';
import type { VideoFilters, VideoFiltersEvent, VideoTab } from '../../../machines/video-filters/video-filters.types.ts';
import { appLabels } from '../../components/app-labels.ts';
import { libraryMessages } from '../../lib/messages.ts';
import { FilterChips } from './filter-chips.tsx';
import type { VideoFiltersActorRef } from './use-video-filters.ts';

export interface VideoFiltersBarProps {
  /** The filters machine hosted by the route (`useVideoFilters`). */
  actorRef: VideoFiltersActorRef;
  /** Every tag (GET /api/etiquetas); empty while they load. */
  tags: readonly Etiqueta[];
  /** For dates on the chips (the browser's language by default). */
  locale?: string;
  /** Administrators also filter by subtitles (R-LIB-26). */
  isAdmin?: boolean;
}

const TABS: ReadonlyArray<{ value: VideoTab; label: string }> = [
  { value: 'todos', label: appLabels.tabAll },
  { value: 'favoritos', label: appLabels.tabFavorites },
  { value: 'no-vistos', label: appLabels.tabNotSeen },
];

/**
 * The list's controls (R-LIB-12), on the filters machine hosted by the route: the view below with
 * the machine's filters, its 'restoring' state and its `send`.
 */
export function VideoFiltersBar({ actorRef, tags, locale, isAdmin = false }: VideoFiltersBarProps) {
  const filters = useSelector(actorRef, (snapshot) => snapshot.context.filters);
  const restoring = useSelector(actorRef, (snapshot) => snapshot.hasTag('restoring'));
  return <FiltersBarView filters={filters} restoring={restoring} send={actorRef.send} tags={tags} locale={locale} isAdmin={isAdmin} />;
}

export interface FiltersBarViewProps {
  filters: VideoFilters;
  /** The stored filters are being restored: the controls wait. */
  restoring: boolean;
  /** Where the controls' events go (the filters machine). */
  send: (event: VideoFiltersEvent) => void;
  tags: readonly Etiqueta[];
  locale?: string | undefined;
  isAdmin?: boolean;
}

/**
 * Tabs Todos / Favoritos / No vistos, the search box (runs on Enter with text), and the filter
 * chips with the tag strip, each sending its event. The app renders it through the filters machine (above).
 */
export function FiltersBarView({ filters, restoring, send, tags, locale, isAdmin = false }: FiltersBarViewProps) {
  const [text, setText] = useState(filters.q ?? '');

  // The text follows the filter when it changes elsewhere (Todos, a restored or linked address).
  useEffect(() => setText(filters.q ?? ''), [filters.q]);

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" gap="md">
        <Tabs value={tabOf(filters)} onChange={(tab) => tab && send({ type: 'filters.tab', tab: tab as VideoTab })}>
          <Tabs.List>
            {TABS.map((tab) => (
              <Tabs.Tab key={tab.value} value={tab.value} disabled={restoring}>
                {tab.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        <TextInput
          type="search"
          aria-label={appLabels.search}
          placeholder={appLabels.search}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={
            filters.q ? (
              <CloseButton
                size="sm"
                aria-label={libraryMessages.clearSearch}
                onClick={() => {
                  setText('');
                  send({ type: 'filters.clear', filter: 'q' });
                }}
              />
            ) : null
          }
          maxLength={MAX_SEARCH_LENGTH}
          value={text}
          disabled={restoring}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            // R-LIB-5: the search runs when Enter is pressed on non-empty text (the machine's guard).
            if (event.key === 'Enter') send({ type: 'filters.search', text });
          }}
          w={{ base: '100%', sm: 320 }}
        />
      </Group>
      <FilterChips
        filters={filters}
        tags={tags}
        disabled={restoring}
        locale={locale}
        withSubtitlesFilter={isAdmin}
        onChange={(changes) => send({ type: 'filters.set', filters: changes })}
        onClear={(filter) => send({ type: 'filters.clear', filter })}
      />
    </Stack>
  );
}
