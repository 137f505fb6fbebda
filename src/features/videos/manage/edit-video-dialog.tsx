import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ActorRefFrom } from 'xstate';
import { validateVideoForm, type VideoFormValues } from '../../../../machines/video-form/video-form.rules.ts';
import { videoDialogMessages } from '../../../lib/messages.ts';
import { VideoFormFields } from '../upload/video-form-fields.tsx';
import type { Video } from '../videos.queries.ts';
import { formValuesOf, type editVideoDialog } from './manage.actors.ts';
import type { SubtitleTracksLogic } from './subtitle-tracks.actors.ts';
import { SubtitleTracksSection } from './subtitle-tracks-section.tsx';
import { useDialog } from '../../../lib/use-dialog.ts';

export interface EditVideoDialogProps {
  /** The running edit dialog (`createVideoManagementLogic(…).editLogic`). */
  actorRef: ActorRefFrom<typeof editVideoDialog>;
  /** The Subtítulos section's machine (R-ADM-7): its changes are saved at once, apart from Guardar. */
  subtitlesLogic?: SubtitleTracksLogic;
}

/**
 * 'Editar video' (R-ADM-1): the video's fields as the dialog opened (a copy), Miniatura
 * for a new picture, Guardar (validates, then saves only what changed; a loader while it saves) and
 * Cancelar. A failure leaves the dialog open with what the user typed.
 */
export function EditVideoDialog({ actorRef, subtitlesLogic }: EditVideoDialogProps) {
  const dialog = useDialog(actorRef);
  return (
    <Modal
      opened={dialog.opened}
      onClose={dialog.close}
      title={videoDialogMessages.editTitle}
      centered
      size="lg"
      closeOnEscape={!dialog.busy}
      closeOnClickOutside={!dialog.busy}
      withCloseButton={!dialog.busy}
    >
      {dialog.subject && (
        <EditVideoForm
          key={dialog.opening}
          video={dialog.subject}
          busy={dialog.busy}
          invalid={dialog.invalid}
          onCancel={dialog.close}
          onSubmit={(values, thumbnail) => dialog.submit({ values, thumbnail })}
          subtitlesLogic={subtitlesLogic}
        />
      )}
    </Modal>
  );
}

interface EditVideoFormProps {
  video: Video;
  busy: boolean;
  /** The last Guardar broke a rule: the messages show (and follow the user's corrections). */
  invalid: boolean;
  onCancel: () => void;
  onSubmit: (values: VideoFormValues, thumbnail: File | null) => void;
  subtitlesLogic?: SubtitleTracksLogic | undefined;
}

function EditVideoForm({ video, busy, invalid, onCancel, onSubmit, subtitlesLogic }: EditVideoFormProps) {
  const [values, setValues] = useState(() => formValuesOf(video));
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(values, thumbnail);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <VideoFormFields
          values={values}
          onChange={setValues}
          errors={invalid ? validateVideoForm(values) : {}}
          disabled={busy}
          knownTags={video.etiquetas}
          thumbnail={{ file: thumbnail, onChange: setThumbnail }}
        />
        {subtitlesLogic && <SubtitleTracksSection logic={subtitlesLogic} videoId={video.id} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {videoDialogMessages.cancel}
          </Button>
          <Button type="submit" loading={busy}>
            {videoDialogMessages.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
