import { useId, useMemo, useState } from 'react';
import { FileInput, MultiSelect, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type {
  VideoFieldError,
  VideoFormErrors,
  VideoFormValues,
} from '../../../../machines/video-form/video-form.rules.ts';
import { videoFormLabels, videoFormMessages } from '../../../lib/messages.ts';
import { tagsQuery, type Etiqueta } from '../videos.queries.ts';

/** A new video's form: empty texts, no tags, visible to everyone (the switch starts on). */
export const emptyVideoForm: VideoFormValues = {
  titulo: '',
  descripcionCorta: '',
  descripcion: '',
  tags: [],
  isVisible: true,
};

/** The Spanish text of R-ADM-2 for a failing rule. */
export function videoFieldErrorMessage(error: VideoFieldError | undefined): string | undefined {
  if (!error) return undefined;
  switch (error.key) {
    case 'required':
      return videoFormMessages.required;
    case 'tooLong':
      return videoFormMessages.tooLong(error.max);
    case 'tooShort':
      return videoFormMessages.tooShort(error.min);
    case 'optionalTooShort':
      return videoFormMessages.optionalTooShort(error.min);
  }
}

/** The picture types the server takes as a thumbnail (PNG, JPEG, WebP). */
export const THUMBNAIL_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const isThumbnailImage = (file: File) => (THUMBNAIL_TYPES as readonly string[]).includes(file.type);

export interface ThumbnailFieldProps {
  /** The chosen picture, or null. */
  file: File | null;
  /** Called with a PNG, JPEG or WebP picture, or null (cleared, or another kind of file was refused). */
  onChange: (file: File | null) => void;
}

export interface VideoFormFieldsProps {
  values: VideoFormValues;
  /** Called with the whole form after each change. */
  onChange: (values: VideoFormValues) => void;
  /** The rules failing (validateVideoForm's answer) to show under their fields; none by default. */
  errors?: VideoFormErrors;
  /** Disables every field (while saving). */
  disabled?: boolean;
  /** Tags the video already has, shown by name before (or without) the tag list. */
  knownTags?: readonly Etiqueta[];
  /** The 'Miniatura' image input, when the dialog offers it. */
  thumbnail?: ThumbnailFieldProps;
}

/**
 * The video's fields, shared by the upload wizard and the edit dialog (R-ADM-1, R-ADM-2): Título,
 * Descripción corta, Descripción, Etiquetas (every tag of GET /api/etiquetas), Visible para todos,
 * and optionally Miniatura. Controlled: the dialog keeps the values and validates them on its
 * button (machines/video-form/video-form.rules.ts), passing the failing rules back as `errors`.
 */
export function VideoFormFields({ values, onChange, errors = {}, disabled = false, knownTags = [], thumbnail }: VideoFormFieldsProps) {
  const id = useId();
  const tags = useQuery(tagsQuery());
  const tagOptions = useMemo(() => {
    const byId = new Map<number, string>();
    for (const tag of knownTags) byId.set(tag.id, tag.nombre);
    for (const tag of tags.data ?? []) byId.set(tag.id, tag.nombre);
    return [...byId].map(([value, label]) => ({ value, label }));
  }, [knownTags, tags.data]);
  const [thumbnailRefused, setThumbnailRefused] = useState(false);

  const set = <K extends keyof VideoFormValues>(key: K, value: VideoFormValues[K]) => onChange({ ...values, [key]: value });

  return (
    <Stack gap="sm">
      <TextInput
        id={`${id}-titulo`}
        label={videoFormLabels.titulo}
        required
        value={values.titulo}
        error={videoFieldErrorMessage(errors.titulo)}
        disabled={disabled}
        onChange={(event) => set('titulo', event.currentTarget.value)}
      />
      <TextInput
        id={`${id}-descripcionCorta`}
        label={videoFormLabels.descripcionCorta}
        required
        value={values.descripcionCorta}
        error={videoFieldErrorMessage(errors.descripcionCorta)}
        disabled={disabled}
        onChange={(event) => set('descripcionCorta', event.currentTarget.value)}
      />
      <Textarea
        id={`${id}-descripcion`}
        label={videoFormLabels.descripcion}
        rows={4}
        resize="vertical"
        value={values.descripcion}
        error={videoFieldErrorMessage(errors.descripcion)}
        disabled={disabled}
        onChange={(event) => set('descripcion', event.currentTarget.value)}
      />
      <MultiSelect<number>
        id={`${id}-tags`}
        label={videoFormLabels.etiquetas}
        data={tagOptions}
        value={values.tags}
        onChange={(value) => set('tags', value)}
        searchable
        clearable
        hidePickedOptions
        nothingFoundMessage={videoFormLabels.noTags}
        disabled={disabled}
      />
      {thumbnail && (
        <FileInput
          id={`${id}-thumbnail`}
          label={videoFormLabels.thumbnail}
          placeholder={videoFormLabels.thumbnailPlaceholder}
          accept={THUMBNAIL_TYPES.join(',')}
          leftSection={<IconPhoto size={16} />}
          clearable
          clearButtonProps={{ 'aria-label': videoFormLabels.thumbnailClear }}
          value={thumbnail.file}
          error={thumbnailRefused ? videoFormLabels.thumbnailNotImage : undefined}
          disabled={disabled}
          onChange={(file) => {
            // The picker's filter can be switched off: anything but a picture is refused here.
            const refused = file !== null && !isThumbnailImage(file);
            setThumbnailRefused(refused);
            thumbnail.onChange(refused ? null : file);
          }}
        />
      )}
      <Switch
        id={`${id}-isVisible`}
        label={videoFormLabels.isVisible}
        checked={values.isVisible}
        disabled={disabled}
        onChange={(event) => set('isVisible', event.currentTarget.checked)}
      />
    </Stack>
  );
}
