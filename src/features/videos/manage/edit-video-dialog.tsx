import { useCallback, useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ActorRefFrom } from 'xstate';
import { validateVideoForm } from '../../../../machines/video-form/video-form.rules.ts';
import { videoDialogMessages } from '../../../lib/messages.ts';
import { VideoFormFields } from '../upload/video-form-fields.tsx';
import type { Video } from '../videos.queries.ts';
import { formValuesOf, type EditVideoPayload, type editVideoDialog } from './manage.actors.ts';
import type { ReplaceFileLogic } from './replace-file.actors.ts';
import { ReplaceFileSection } from './replace-file-section.tsx';
import type { SubtitleTracksLogic } from './subtitle-tracks.actors.ts';
import { SubtitleTracksSection } from './subtitle-tracks-section.tsx';
import { useDialog } from '../../../lib/use-dialog.ts';

export interface EditVideoDialogProps {
  /** The running edit dialog (`createVideoManagementLogic(…).editLogic`). */
  actorRef: ActorRefFrom<typeof editVideoDialog>;
  /** The Subtítulos section's machine (R-ADM-7): its changes are saved at once, apart from Guardar. */
  subtitlesLogic?: SubtitleTracksLogic;
  /** The Reemplazar archivo section's machines (R-ADM-20…23): the swap happens at once, apart from Guardar. */
  replaceLogic?: ReplaceFileLogic;
}

/**
 * 'Editar video' (R-ADM-1): the video's fields as the dialog opened (a copy), Miniatura
 * for a new picture, Guardar (validates, then saves only what changed; a loader while it saves) and
 * Cancelar. A failure leaves the dialog open with what the user typed. Subtítulos and Reemplazar
 * archivo act at once, apart from Guardar.
 */
export function EditVideoDialog({ actorRef, subtitlesLogic, replaceLogic }: EditVideoDialogProps) {
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
          onSubmit={(payload) => dialog.submit(payload)}
          subtitlesLogic={subtitlesLogic}
          replaceLogic={replaceLogic}
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
  onSubmit: (payload: EditVideoPayload) => void;
  subtitlesLogic?: SubtitleTracksLogic | undefined;
  replaceLogic?: ReplaceFileLogic | undefined;
}

function EditVideoForm({ video, busy, invalid, onCancel, onSubmit, subtitlesLogic, replaceLogic }: EditVideoFormProps) {
  const [values, setValues] = useState(() => formValuesOf(video));
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  // The video's asset once its file was replaced here: a new thumbnail goes to it (the old one is gone).
  const [replacedAsset, setReplacedAsset] = useState<string | null>(null);
  const onReplaced = useCallback((replaced: Video) => setReplacedAsset(replaced.idExterno), []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ values, thumbnail, ...(replacedAsset ? { idExterno: replacedAsset } : {}) });
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
        {replaceLogic && <ReplaceFileSection logic={replaceLogic} videoId={video.id} onReplaced={onReplaced} />}
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
