import { useEffect, useRef, useState } from "react";
import {
  Box,
  Button,
  Container,
  Group,
  Menu,
  Modal,
  MultiSelect,
  Stack,
  Text,
} from "@mantine/core";
import {
  IconChevronDown,
  IconEye,
  IconEyeOff,
  IconTag,
  IconTagOff,
  IconTrash,
  IconX,
} from "@tabler/icons-react";
import { useSelector } from "@xstate/react";
import type { ActorRefFrom } from "xstate";
import type { videoSelectionMachine } from "../../../../machines/video-selection/video-selection.machine.ts";
import { bulkMessages } from "../../../lib/messages.ts";
import type { Etiqueta, Video } from "../videos.queries.ts";

export interface SelectionBarProps {
  actorRef: ActorRefFrom<typeof videoSelectionMachine>;
  /** The videos loaded in the list: 'Seleccionar todos' selects these. */
  videos: readonly Video[];
  /** Every tag, for the picker. */
  tags: readonly Etiqueta[];
}

/**
 * The selection bar (R-ADM-15, R-ADM-16, R-ADM-17): fixed at the bottom of the window, so it stays
 * in reach on a phone and nothing above the list moves when it comes. The count (announced
 * politely), Seleccionar todos / Quitar selección, the batch actions and Cancelar; the tag picker
 * and the delete question are its dialogs. Everything is disabled while a batch runs.
 */
export function SelectionBar({ actorRef, videos, tags }: SelectionBarProps) {
  const selecting = useSelector(actorRef, (snapshot) =>
    snapshot.hasTag("selecting"),
  );
  const canAct = useSelector(actorRef, (snapshot) => snapshot.hasTag("canAct"));
  const busy = useSelector(actorRef, (snapshot) => snapshot.hasTag("busy"));
  const selected = useSelector(
    actorRef,
    (snapshot) => snapshot.context.selected,
  );
  const action = useSelector(actorRef, (snapshot) => snapshot.context.action);
  const tagMode = useSelector(actorRef, (snapshot) => snapshot.context.tagMode);
  const confirming = useSelector(actorRef, (snapshot) =>
    snapshot.matches({ on: "confirmDelete" }),
  );
  const running = busy ? action?.kind : undefined;
  const send = actorRef.send;
  const cancelRef = useRef<HTMLButtonElement>(null);
  const selectAllRef = useRef<HTMLButtonElement>(null);

  const loadedIds = videos.map((video) => video.id);
  // Nothing more to select: every loaded video is selected (or none is loaded).
  const allSelected = loadedIds.every((id) => selected.includes(id));

  // A batch that left nothing selected disables the button that had the focus: it goes to the bar's next control.
  useEffect(() => {
    if (!selecting || canAct || busy) return;
    const active = document.activeElement;
    if (
      !active ||
      active === document.body ||
      (active instanceof HTMLButtonElement && active.disabled)
    ) {
      (selectAllRef.current && !selectAllRef.current.disabled
        ? selectAllRef.current
        : cancelRef.current
      )?.focus();
    }
  }, [selecting, canAct, busy]);

  if (!selecting) return null;
  return (
    <>
      <Box
        component="section"
        aria-label={bulkMessages.bar}
        data-video-selection
        pos="fixed"
        bottom={0}
        left={0}
        right={0}
        py="xs"
        bg="var(--mantine-color-body)"
        style={{
          zIndex: 150,
          borderTop: "1px solid var(--mantine-color-default-border)",
          boxShadow: "var(--mantine-shadow-md)",
        }}
      >
        <Container size="xl">
          <Stack gap={8}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text fw={600} role="status" aria-live="polite">
                {bulkMessages.count(selected.length)}
              </Text>
              <Group gap="xs" wrap="wrap" justify="flex-end">
                <Button
                  ref={selectAllRef}
                  size="xs"
                  variant="subtle"
                  disabled={busy || allSelected}
                  onClick={() =>
                    send({ type: "selection.selectAll", ids: loadedIds })
                  }
                >
                  {bulkMessages.selectAll}
                </Button>
                <Button
                  size="xs"
                  variant="subtle"
                  disabled={busy || !canAct}
                  onClick={() => send({ type: "selection.clear" })}
                >
                  {bulkMessages.clear}
                </Button>
              </Group>
            </Group>
            <Group gap="xs" wrap="wrap">
              <Button
                size="xs"
                variant="light"
                leftSection={<IconTag size={14} aria-hidden />}
                disabled={!canAct}
                onClick={() => send({ type: "selection.tags", mode: "add" })}
              >
                {bulkMessages.addTags}
              </Button>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconTagOff size={14} aria-hidden />}
                disabled={!canAct}
                onClick={() => send({ type: "selection.tags", mode: "remove" })}
              >
                {bulkMessages.removeTags}
              </Button>
              <Menu position="top-start" shadow="md" withinPortal>
                <Menu.Target>
                  <Button
                    size="xs"
                    variant="light"
                    rightSection={<IconChevronDown size={14} aria-hidden />}
                    disabled={!canAct}
                    loading={running === "visibility"}
                  >
                    {bulkMessages.visibility}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item
                    leftSection={<IconEye size={14} aria-hidden />}
                    onClick={() =>
                      send({ type: "selection.visibility", visible: true })
                    }
                  >
                    {bulkMessages.visible}
                  </Menu.Item>
                  <Menu.Item
                    leftSection={<IconEyeOff size={14} aria-hidden />}
                    onClick={() =>
                      send({ type: "selection.visibility", visible: false })
                    }
                  >
                    {bulkMessages.hidden}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
              <Button
                size="xs"
                variant="light"
                color="red"
                leftSection={<IconTrash size={14} aria-hidden />}
                disabled={!canAct}
                onClick={() => send({ type: "selection.delete" })}
              >
                {bulkMessages.remove}
              </Button>
              <Button
                ref={cancelRef}
                size="xs"
                variant="default"
                ml="auto"
                leftSection={<IconX size={14} aria-hidden />}
                disabled={busy}
                onClick={() => send({ type: "selection.cancel" })}
              >
                {bulkMessages.cancel}
              </Button>
            </Group>
          </Stack>
        </Container>
      </Box>
      <TagPickerDialog
        opened={tagMode !== null}
        mode={tagMode ?? "add"}
        count={selected.length}
        tags={tags}
        busy={running === "tags"}
        onClose={() => send({ type: "selection.dismiss" })}
        onSubmit={(tagIds) => send({ type: "selection.tags.submit", tagIds })}
      />
      <Modal
        opened={confirming || running === "delete"}
        onClose={() => send({ type: "selection.dismiss" })}
        title={bulkMessages.deleteTitle}
        centered
        closeOnEscape={!busy}
        closeOnClickOutside={!busy}
        withCloseButton={!busy}
      >
        <Stack gap="lg">
          <Stack gap={4}>
            <Text>{bulkMessages.deleteQuestion(selected.length)}</Text>
            <Text size="sm" c="gray.7">
              {bulkMessages.deleteWarning}
            </Text>
          </Stack>
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => send({ type: "selection.dismiss" })}
              disabled={busy}
            >
              {bulkMessages.cancel}
            </Button>
            <Button
              color="red"
              loading={running === "delete"}
              onClick={() => send({ type: "selection.confirm" })}
              data-autofocus
            >
              {bulkMessages.remove}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

interface TagPickerDialogProps {
  opened: boolean;
  mode: "add" | "remove";
  count: number;
  tags: readonly Etiqueta[];
  busy: boolean;
  onClose: () => void;
  onSubmit: (tagIds: number[]) => void;
}

/** 'Añadir etiquetas a N videos' / 'Quitar etiquetas de N videos': the edit dialog's tag field and one button. */
function TagPickerDialog({
  opened,
  mode,
  count,
  tags,
  busy,
  onClose,
  onSubmit,
}: TagPickerDialogProps) {
  const [chosen, setChosen] = useState<number[]>([]);
  // Each opening starts with nothing chosen.
  useEffect(() => {
    if (opened) setChosen([]);
  }, [opened]);
  const options = tags.map((tag) => ({ value: tag.id, label: tag.nombre }));
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={
        mode === "add"
          ? bulkMessages.addTagsTitle(count)
          : bulkMessages.removeTagsTitle(count)
      }
      centered
      closeOnEscape={!busy}
      closeOnClickOutside={!busy}
      withCloseButton={!busy}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (chosen.length > 0) onSubmit(chosen);
        }}
      >
        <Stack gap="lg">
          <MultiSelect<number>
            label={bulkMessages.tags}
            data={options}
            value={chosen}
            onChange={setChosen}
            searchable
            clearable
            hidePickedOptions
            nothingFoundMessage={bulkMessages.noTags}
            disabled={busy}
            data-autofocus
            comboboxProps={{ withinPortal: true }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {bulkMessages.cancel}
            </Button>
            <Button type="submit" loading={busy} disabled={chosen.length === 0}>
              {mode === "add" ? bulkMessages.add : bulkMessages.take}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
