import { useId, useState } from 'react';
// Fieldset's CSS is in no earlier chunk: the section brings it (the wizard's and the edit dialog's chunks).
import '@mantine/core/styles/Fieldset.css';
import { Alert, Button, FileButton, Fieldset, Group, Select, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconFileText, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import type { SubtitleFailure } from '../../../../machines/upload-queue/upload-file.types.ts';
import { subtitleMessages } from '../../../lib/messages.ts';
import { formatBytes } from './upload-format.ts';
import {
  freeLanguage,
  guessSubtitleLanguage,
  isSubtitleFileName,
  languageName,
  languageOptions,
  SUBTITLE_ACCEPT,
  type SubtitleChoice,
} from './subtitle-files.ts';
import { subtitleRefusalMessage } from './subtitles.actors.ts';

export interface SubtitleFilesSectionProps {
  /** The files chosen so far, one per language. */
  value: readonly SubtitleChoice[];
  onChange: (value: SubtitleChoice[]) => void;
  disabled?: boolean;
  /** Files the server refused (after Confirmar): each shows its message under its row. */
  failures?: readonly SubtitleFailure[];
  /** Languages already stored: their rows are done and cannot change. */
  saved?: readonly string[];
}

/**
 * The wizard's 'Subtítulos' (R-UPL-9, R-UPL-10): add a .vtt or .srt file per language (the
 * language guessed from the name, `charla.en.srt`, and changeable), replace a file, remove one.
 * Nothing is sent here: the wizard sends the files once the video exists.
 */
export function SubtitleFilesSection({ value, onChange, disabled = false, failures = [], saved = [] }: SubtitleFilesSectionProps) {
  const hintId = useId();
  const [refused, setRefused] = useState<string | null>(null);
  const options = languageOptions();

  const add = (files: File[] | null) => {
    let list = [...value];
    let refusal: string | null = null;
    for (const file of files ?? []) {
      if (!isSubtitleFileName(file.name)) {
        refusal = subtitleMessages.notASubtitleFile(file.name);
        continue;
      }
      const idioma = freeLanguage(list, guessSubtitleLanguage(file.name));
      if (idioma === null) {
        refusal = subtitleMessages.allLanguagesTaken;
        continue;
      }
      list = [...list, { idioma, file }];
    }
    setRefused(refusal);
    onChange(list);
  };
  const replace = (idioma: string, file: File | null) => {
    if (!file) return;
    if (!isSubtitleFileName(file.name)) {
      setRefused(subtitleMessages.notASubtitleFile(file.name));
      return;
    }
    setRefused(null);
    onChange(value.map((entry) => (entry.idioma === idioma ? { idioma, file } : entry)));
  };
  const relabel = (idioma: string, next: string | null) => {
    if (!next || value.some((entry) => entry.idioma === next)) return;
    onChange(value.map((entry) => (entry.idioma === idioma ? { ...entry, idioma: next } : entry)));
  };
  const remove = (idioma: string) => {
    setRefused(null);
    onChange(value.filter((entry) => entry.idioma !== idioma));
  };

  return (
    <Fieldset legend={subtitleMessages.section} disabled={disabled} aria-describedby={hintId} p="sm">
      <Stack gap="xs">
        <Text id={hintId} size="sm" c="dimmed">
          {subtitleMessages.hint}
        </Text>
        {value.length > 0 && (
          <Stack component="ul" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {value.map(({ idioma, file }) => {
              const failure = failures.find((entry) => entry.idioma === idioma);
              const done = saved.includes(idioma);
              const language = languageName(idioma);
              return (
                <li key={idioma}>
                  <Stack gap={4}>
                    <Group gap="xs" wrap="wrap" align="flex-end">
                      {/* The file's name on its own line, its language and buttons under it, at any width. */}
                      <Group gap={6} wrap="nowrap" style={{ flex: '1 1 100%', minWidth: 0 }}>
                        <IconFileText size={18} aria-hidden style={{ flexShrink: 0 }} />
                        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                          {file.name}{' '}
                          <Text span size="sm" c="dimmed">
                            ({formatBytes(file.size)})
                          </Text>
                        </Text>
                      </Group>
                      <Select
                        aria-label={subtitleMessages.languageOf(file.name)}
                        data={options.map((option) => ({
                          ...option,
                          disabled: option.value !== idioma && value.some((entry) => entry.idioma === option.value),
                        }))}
                        value={idioma}
                        onChange={(next) => relabel(idioma, next)}
                        allowDeselect={false}
                        disabled={disabled || done}
                        w={150}
                        size="sm"
                      />
                      {/* The row's two buttons stay together when the row wraps. */}
                      <Group gap="xs" wrap="nowrap">
                        <FileButton onChange={(next) => replace(idioma, next)} accept={SUBTITLE_ACCEPT} disabled={disabled || done}>
                          {(props) => (
                            <Button {...props} variant="default" size="sm" leftSection={<IconRefresh size={16} aria-hidden />} aria-label={subtitleMessages.replaceLabel(language)} disabled={disabled || done}>
                              {subtitleMessages.replace}
                            </Button>
                          )}
                        </FileButton>
                        <Button variant="subtle" color="red.8" c="red.9" size="sm" leftSection={<IconTrash size={16} aria-hidden />} aria-label={subtitleMessages.removeLabel(language)} onClick={() => remove(idioma)} disabled={disabled || done}>
                          {subtitleMessages.remove}
                        </Button>
                      </Group>
                    </Group>
                    {failure && (
                      <Text size="sm" c="red.8" role="alert">
                        {subtitleRefusalMessage(failure)}
                      </Text>
                    )}
                  </Stack>
                </li>
              );
            })}
          </Stack>
        )}
        <Group>
          <FileButton onChange={add} accept={SUBTITLE_ACCEPT} multiple disabled={disabled}>
            {(props) => (
              <Button {...props} variant="light" size="sm" leftSection={<IconPlus size={16} aria-hidden />} disabled={disabled}>
                {subtitleMessages.add}
              </Button>
            )}
          </FileButton>
        </Group>
        {refused && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} p="xs">
            {refused}
          </Alert>
        )}
      </Stack>
    </Fieldset>
  );
}
