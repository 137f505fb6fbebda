import { memo, useState } from 'react';
import '@mantine/core/styles/Fieldset.css';
import { Alert, Button, FileButton, Fieldset, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconFileText, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useActorRef, useSelector } from '@xstate/react';
import type { TracksNotice } from '../../../../machines/subtitle-tracks/subtitle-tracks.types.ts';
import { subtitleMessages } from '../../../lib/messages.ts';
import { isSubtitleFileName, languageInName, languageName, languageOptions, SUBTITLE_ACCEPT } from '../upload/subtitle-files.ts';
import { subtitleRefusalMessage } from '../upload/subtitles.actors.ts';
import type { SubtitleTracksLogic } from './subtitle-tracks.actors.ts';

export interface SubtitleTracksSectionProps {
  /** The section's machine with the app's actors (`createSubtitleTracksLogic`, or test doubles). */
  logic: SubtitleTracksLogic;
  videoId: number;
}

/** The outcome of the last change, in Spanish. */
function noticeText(notice: TracksNotice): string {
  const language = languageName(notice.idioma);
  switch (notice.kind) {
    case 'saved':
      return subtitleMessages.saved(language);
    case 'removed':
      return subtitleMessages.removed(language);
    case 'putFailed':
      return `${notice.fileName} (${language}): ${subtitleRefusalMessage(notice)}`;
    case 'removeFailed':
      return `${subtitleMessages.removeFailed} (${language})`;
  }
}

/**
 * 'Subtítulos' in 'Editar video' (R-ADM-7…9): the video's tracks by their Spanish names, each with
 * 'Sustituir' (a new file, sent at once) and 'Quitar' (after a question); 'Añadir subtítulos' for
 * another language, which the file's name gives (`charla.en.srt`) or the select beside it. Each
 * change is saved at once, apart from Guardar, and its outcome said under the list.
 */
// Memoized: the dialog's form renders again at each keystroke, and this section has nothing new to draw then.
export const SubtitleTracksSection = memo(function SubtitleTracksSection({ logic, videoId }: SubtitleTracksSectionProps) {
  const actorRef = useActorRef(logic, { input: { videoId } });
  const snapshot = useSelector(actorRef, (current) => current);
  const { tracks, pending, notice } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  const confirming = snapshot.matches('confirmingRemoval') ? pending?.idioma : undefined;
  const free = languageOptions().filter((option) => !tracks.some((track) => track.idioma === option.value));
  const [chosen, setChosen] = useState<string | null>(null);
  const newLanguage = chosen !== null && free.some((option) => option.value === chosen) ? chosen : (free[0]?.value ?? 'es');
  const [refused, setRefused] = useState<string | null>(null);

  const send = (idioma: string | null, file: File | null) => {
    if (!file) return;
    if (!isSubtitleFileName(file.name)) {
      setRefused(subtitleMessages.notASubtitleFile(file.name));
      return;
    }
    setRefused(null);
    actorRef.send({ type: 'tracks.put', idioma: idioma ?? languageInName(file.name) ?? newLanguage, file });
  };

  return (
    <Fieldset legend={subtitleMessages.section} aria-busy={snapshot.matches('loading') || busy} p="sm">
      <Stack gap="xs">
        {snapshot.matches('loading') && (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">{subtitleMessages.loading}</Text>
          </Group>
        )}
        {snapshot.matches('loadFailed') && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} p="xs">
            <Group gap="sm" justify="space-between">
              <Text size="sm">{subtitleMessages.loadFailed}</Text>
              <Button size="xs" onClick={() => actorRef.send({ type: 'tracks.retry' })}>
                {subtitleMessages.retry}
              </Button>
            </Group>
          </Alert>
        )}
        {!snapshot.matches('loading') && !snapshot.matches('loadFailed') && (
          <>
            {tracks.length === 0 ? (
              <Text size="sm" c="dimmed">
                {subtitleMessages.none}
              </Text>
            ) : (
              <Stack component="ul" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {tracks.map((track) => (
                  <li key={track.idioma}>
                    <Group gap="xs" wrap="wrap">
                      <Group gap={6} wrap="nowrap" style={{ flex: '1 1 8rem', minWidth: 0 }}>
                        <IconFileText size={18} aria-hidden style={{ flexShrink: 0 }} />
                        <Text size="sm" fw={500} lang="es">
                          {track.etiqueta}
                        </Text>
                      </Group>
                      {confirming === track.idioma ? (
                        <Group gap="xs" wrap="wrap" role="group" aria-label={subtitleMessages.removeQuestion(track.etiqueta)}>
                          <Text size="sm">{subtitleMessages.removeQuestion(track.etiqueta)}</Text>
                          <Button size="xs" color="red.8" onClick={() => actorRef.send({ type: 'tracks.confirmRemoval' })}>
                            {subtitleMessages.remove}
                          </Button>
                          <Button size="xs" variant="default" onClick={() => actorRef.send({ type: 'tracks.cancelRemoval' })}>
                            {subtitleMessages.cancel}
                          </Button>
                        </Group>
                      ) : (
                        <Group gap="xs" wrap="nowrap">
                          <FileButton onChange={(file) => send(track.idioma, file)} accept={SUBTITLE_ACCEPT} disabled={busy}>
                            {(props) => (
                              <Button
                                {...props}
                                variant="default"
                                size="sm"
                                leftSection={<IconRefresh size={16} aria-hidden />}
                                aria-label={subtitleMessages.replaceLabel(track.etiqueta)}
                                disabled={busy}
                                loading={busy && pending?.idioma === track.idioma}
                              >
                                {subtitleMessages.replace}
                              </Button>
                            )}
                          </FileButton>
                          <Button
                            variant="subtle"
                            color="red.8"
                            // The subtle variant's text is red.6 (3.3:1 on white); red.9 reads at 5.9:1.
                            c="red.9"
                            size="sm"
                            leftSection={<IconTrash size={16} aria-hidden />}
                            aria-label={subtitleMessages.removeLabel(track.etiqueta)}
                            disabled={busy}
                            onClick={() => actorRef.send({ type: 'tracks.remove', idioma: track.idioma })}
                          >
                            {subtitleMessages.remove}
                          </Button>
                        </Group>
                      )}
                    </Group>
                  </li>
                ))}
              </Stack>
            )}
            <Group gap="xs" align="flex-end" wrap="wrap">
              <Select
                label={subtitleMessages.language}
                data={free.length > 0 ? free : languageOptions()}
                value={newLanguage}
                onChange={setChosen}
                allowDeselect={false}
                disabled={busy}
                w={150}
                size="sm"
              />
              <FileButton onChange={(file) => send(null, file)} accept={SUBTITLE_ACCEPT} disabled={busy}>
                {(props) => (
                  <Button
                    {...props}
                    variant="light"
                    size="sm"
                    leftSection={<IconPlus size={16} aria-hidden />}
                    disabled={busy}
                    loading={busy && pending !== null && !tracks.some((track) => track.idioma === pending.idioma)}
                  >
                    {subtitleMessages.add}
                  </Button>
                )}
              </FileButton>
            </Group>
            <Text size="xs" c="dimmed">
              {subtitleMessages.hint}
            </Text>
          </>
        )}
        {refused && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} p="xs">
            {refused}
          </Alert>
        )}
        {/* Always there, so a screen reader hears each outcome (R-ADM-9). */}
        <div role="status" aria-live="polite">
          {notice && (notice.kind === 'saved' || notice.kind === 'removed') && (
            <Group gap={6} wrap="nowrap">
              <IconCheck size={16} color="var(--mantine-color-green-8)" aria-hidden />
              <Text size="sm" c="green.9">
                {noticeText(notice)}
              </Text>
            </Group>
          )}
          {busy && <Text size="sm">{snapshot.matches('saving') ? subtitleMessages.saving : subtitleMessages.removing}</Text>}
        </div>
        {notice && (notice.kind === 'putFailed' || notice.kind === 'removeFailed') && (
          <Text size="sm" c="red.8" role="alert">
            {noticeText(notice)}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
});
