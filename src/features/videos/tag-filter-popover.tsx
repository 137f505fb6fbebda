import { useEffect, useId, useMemo } from 'react';
import { Button, Checkbox, CloseButton, Group, Pill, Popover, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { IconChevronDown, IconSearch } from '@tabler/icons-react';
import { useActorRef, useSelector } from '@xstate/react';
import { tagFilterMachine, tagsStartingWith } from '../../../machines/tag-filter/tag-filter.machine.ts';
import type { Etiqueta } from '../../../machines/tag-filter/tag-filter.types.ts';
import { libraryMessages } from '../../lib/messages.ts';
import { popoverTransition, usePopoverOverlay } from './popover-transition.ts';

export interface TagFilterPopoverProps {
  /** Every tag (GET /api/etiquetas). */
  tags: readonly Etiqueta[];
  /** Ids of the tag filter in effect (the address's `tag=in:…`), in the order they were chosen. */
  appliedIds: readonly number[];
  /** 'Aplicar': the new filter (never empty). */
  onApply: (ids: number[]) => void;
  /** The chip's clear control. */
  onClear: () => void;
  /** While the filters are being restored or the tags load. */
  disabled?: boolean;
  /** The machine; tests may pass one with other implementations. */
  logic?: typeof tagFilterMachine;
}

/** The chip's text: 'Etiqueta', or up to 3 applied tag names then 'y N más' (R-LIB-7). */
export function tagChipText(tags: readonly Etiqueta[], ids: readonly number[]): string {
  const names = new Map(tags.map((tag) => [tag.id, tag.nombre]));
  const known = ids.flatMap((id) => (names.has(id) ? [names.get(id)!] : []));
  return libraryMessages.tagChipLabel(known, ids.length - known.length);
}

/**
 * The 'Etiqueta' chip and its popover 'Filtrar por etiquetas' (R-LIB-6), driven by the tag-filter
 * machine. The filter in effect comes from the host (`appliedIds`): whatever changes it elsewhere
 * (a tag link on a card, 'Todos', restored filters) is what the popover shows as selected next time.
 */
export function TagFilterPopover({ tags, appliedIds, onApply, onClear, disabled = false, logic = tagFilterMachine }: TagFilterPopoverProps) {
  const actorRef = useActorRef(logic, { input: { applied: [...appliedIds] } });
  const opened = useSelector(actorRef, (snapshot) => snapshot.hasTag('open'));
  const canApply = useSelector(actorRef, (snapshot) => snapshot.hasTag('canApply'));
  const applied = useSelector(actorRef, (snapshot) => snapshot.context.applied);
  const selected = useSelector(actorRef, (snapshot) => snapshot.context.selected);
  const text = useSelector(actorRef, (snapshot) => snapshot.context.text);
  const titleId = useId();
  const selectedId = useId();

  const appliedKey = appliedIds.join(',');
  useEffect(() => {
    actorRef.send({ type: 'tagFilter.sync', applied: appliedKey === '' ? [] : appliedKey.split(',').map(Number) });
  }, [actorRef, appliedKey]);

  useEffect(() => {
    const applying = actorRef.on('tagFilter.applied', (event) => onApply(event.ids));
    const clearing = actorRef.on('tagFilter.cleared', () => onClear());
    return () => {
      applying.unsubscribe();
      clearing.unsubscribe();
    };
  }, [actorRef, onApply, onClear]);

  const matching = useMemo(() => tagsStartingWith(tags, text), [tags, text]);
  const nameOf = (id: number) => tags.find((tag) => tag.id === id)?.nombre ?? `#${id}`;
  const label = tagChipText(tags, applied);
  const overlay = usePopoverOverlay();

  return (
    <Group gap={2} wrap="nowrap">
      <Popover
        {...overlay}
        opened={opened}
        onDismiss={() => actorRef.send({ type: 'tagFilter.dismiss' })}
        position="bottom-start"
        width={300}
        shadow="md"
        trapFocus
        returnFocus
        transitionProps={popoverTransition}
      >
        <Popover.Target>
          <Button
            variant={applied.length > 0 ? 'light' : 'default'}
            radius="xl"
            size="sm"
            disabled={disabled}
            rightSection={<IconChevronDown size={14} aria-hidden />}
            onClick={() => actorRef.send({ type: opened ? 'tagFilter.dismiss' : 'tagFilter.open' })}
            maw={320}
          >
            <Text span inherit truncate>
              {label}
            </Text>
          </Button>
        </Popover.Target>
        <Popover.Dropdown aria-labelledby={titleId}>
          <Stack gap="sm">
            <Text id={titleId} fw={600}>
              {libraryMessages.tagFilterTitle}
            </Text>
            <TextInput
              data-autofocus
              aria-label={libraryMessages.tagFilterPlaceholder}
              placeholder={libraryMessages.tagFilterPlaceholder}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={text}
              onChange={(event) => actorRef.send({ type: 'tagFilter.type', text: event.currentTarget.value })}
            />
            <ScrollArea.Autosize mah={200} type="auto">
              {matching.length === 0 ? (
                <Text size="sm" c="gray.7">
                  {libraryMessages.noMatchingTags}
                </Text>
              ) : (
                <Stack gap={6}>
                  {matching.map((tag) => (
                    <Checkbox
                      key={tag.id}
                      label={tag.nombre}
                      checked={selected.includes(tag.id)}
                      onChange={(event) =>
                        actorRef.send(
                          event.currentTarget.checked
                            ? { type: 'tagFilter.select', id: tag.id }
                            : { type: 'tagFilter.unselect', id: tag.id },
                        )
                      }
                    />
                  ))}
                </Stack>
              )}
            </ScrollArea.Autosize>
            <section aria-labelledby={selectedId}>
              <Text id={selectedId} size="sm" fw={500} mb={selected.length > 0 ? 6 : 0}>
                {selected.length > 0 ? libraryMessages.selectedTags : libraryMessages.noSelectedTags}
              </Text>
              {selected.length > 0 && (
                <Pill.Group>
                  {selected.map((id) => (
                    <Pill
                      key={id}
                      withRemoveButton
                      onRemove={() => actorRef.send({ type: 'tagFilter.unselect', id })}
                      // Mantine hides the remove button from keyboards and screen readers (it expects Backspace in
                      // an input); here it is the only way to remove a tag, so it is a real button.
                      removeButtonProps={{ 'aria-label': libraryMessages.removeSelectedTag(nameOf(id)), 'aria-hidden': false, tabIndex: 0 }}
                    >
                      {nameOf(id)}
                    </Pill>
                  ))}
                </Pill.Group>
              )}
            </section>
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => actorRef.send({ type: 'tagFilter.cancel' })}>
                {libraryMessages.cancel}
              </Button>
              <Button disabled={!canApply} onClick={() => actorRef.send({ type: 'tagFilter.apply' })}>
                {libraryMessages.apply}
              </Button>
            </Group>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      {applied.length > 0 && (
        <CloseButton
          size="sm"
          radius="xl"
          disabled={disabled}
          aria-label={libraryMessages.clearTagFilter}
          onClick={() => actorRef.send({ type: 'tagFilter.clear' })}
        />
      )}
    </Group>
  );
}
