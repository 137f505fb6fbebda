import { useEffect, useRef, useState } from 'react';
import { useActorRef } from '@xstate/react';
import { FILTER_KEYS } from '../../../machines/video-filters/video-filters.ts';
import { videoFiltersMachine } from '../../../machines/video-filters/video-filters.machine.ts';
import type { FilterSearch, WriteAddressParams } from '../../../machines/video-filters/video-filters.types.ts';
import { readStoredFilters, writeStoredFilters } from './video-filters.storage.ts';

export interface UseVideoFiltersOptions {
  /** The address's filters (the route's validated search). */
  search: FilterSearch;
  /** Writes the filters into the address: `navigate({ search, replace })`, keeping other params if any. */
  navigate: (params: WriteAddressParams) => void;
  /** Session storage by default; null to keep the filters in the address only. */
  storage?: Storage | null;
  logic?: typeof videoFiltersMachine;
}

const keyOf = (search: FilterSearch) => FILTER_KEYS.map((key) => search[key] ?? '').join('\u0000');

/**
 * Hosts the filters machine for the list route: supplies its actions (navigate, session storage),
 * restores the stored filters once on entering, and tells it when the address changed by
 * navigation. Returns the actor for `VideoFiltersBar` and for reading the filters
 * (`useSelector(actorRef, (s) => s.context.filters)`, `s.hasTag('ready')` before querying the list).
 */
export function useVideoFilters({ search, navigate, storage, logic = videoFiltersMachine }: UseVideoFiltersOptions) {
  const navigateRef = useRef(navigate);
  const storageRef = useRef(storage);
  useEffect(() => {
    navigateRef.current = navigate;
    storageRef.current = storage;
  });
  const [machine] = useState(() =>
    logic.provide({
      actions: {
        writeAddress: (_, params) => navigateRef.current(params),
        storeFilters: (_, params) => writeStoredFilters(params.search, storageRef.current),
      },
    }),
  );
  const actorRef = useActorRef(machine, { input: { search } });

  useEffect(() => {
    actorRef.send({ type: 'filters.restore', stored: readStoredFilters(storageRef.current) });
  }, [actorRef]);

  // Only a change of the address after entering is news; the restoring itself changes it too, which
  // the machine recognises as what it already has.
  const key = keyOf(search);
  const previousKey = useRef(key);
  const searchRef = useRef(search);
  searchRef.current = search;
  useEffect(() => {
    if (key === previousKey.current) return;
    previousKey.current = key;
    actorRef.send({ type: 'filters.sync', search: searchRef.current });
  }, [actorRef, key]);

  return actorRef;
}

export type VideoFiltersActorRef = ReturnType<typeof useVideoFilters>;
