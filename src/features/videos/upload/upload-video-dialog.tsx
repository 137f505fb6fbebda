import { useEffect, useState } from 'react';
// The wizard's own CSS (its chunk loads only when it opens): what it adds to the signed-in area's.
import '@mantine/core/styles/LoadingOverlay.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/Stepper.css';
import '@mantine/dropzone/styles.css';
import { Alert, Button, Group, Loader, Modal, Progress, Stack, Stepper, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconMovie, IconUpload } from '@tabler/icons-react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorOptions, AnyActorLogic } from 'xstate';
import {
  percentOf,
  stepOf,
  VIDEO_EXTENSIONS,
  type uploadWizardMachine,
} from '../../../../machines/upload-wizard/upload-wizard.machine.ts';
import { validateVideoForm, type VideoFormValues } from '../../../../machines/video-form/video-form.rules.ts';
import { appLabels } from '../../../components/app-labels.ts';
import { subtitleMessages, uploadMessages } from '../../../lib/messages.ts';
import { languageName, type SubtitleChoice } from './subtitle-files.ts';
import { SubtitleFilesSection } from './subtitle-files-section.tsx';
import { subtitleRefusalMessage } from './subtitles.actors.ts';
import { formatBytes, formatRate } from './upload-format.ts';
import { emptyVideoForm, VideoFormFields } from './video-form-fields.tsx';

type UploadWizardSnapshot = ReturnType<ReturnType<typeof useActorRef<typeof uploadWizardMachine>>['getSnapshot']>;

export interface UploadVideoDialogProps {
  /** The upload wizard with its actors provided (the app's `createUploadWizardLogic`, or test doubles). */
  logic: typeof uploadWizardMachine;
  /** Called once the wizard has ended (video created, or cancelled): the host unmounts the dialog. */
  onClose: () => void;
  /** Tests drive the machine's delays with a simulated clock. */
  clock?: ActorOptions<AnyActorLogic>['clock'];
}

/** What the dropzone offers in the file picker: videos (the machine decides what it takes). */
const ACCEPT = { 'video/*': [...VIDEO_EXTENSIONS] };

const PHONE_STEPPER = {
  steps: { flexWrap: 'nowrap' as const, alignItems: 'flex-start' },
  separator: { display: 'none' },
  step: { flex: 1, minWidth: 0 },
  stepBody: { marginInline: 0 },
  stepLabel: { fontSize: 'var(--mantine-font-size-xs)', whiteSpace: 'normal' as const, textAlign: 'center' as const },
};

/** The part of the state value under `open` (or the top state), as a name. */
function phaseOf(snapshot: UploadWizardSnapshot): string {
  const value = snapshot.value as string | { open?: unknown; saving?: unknown };
  if (typeof value === 'string') return value;
  if (value.open !== undefined) return typeof value.open === 'string' ? value.open : 'processing';
  return 'saving';
}

/**
 * 'Subir video' (R-UPL-1): a stepper ('Elegir archivo', 'Preparar subida', 'Subiendo',
 * 'Subida completada'), the step's content (dropzone, progress with percentage and rate, messages
 * with 'Reintentar' / 'Elegir otro archivo'), the video's fields (editable while the file uploads)
 * and 'Cancelar' / 'Confirmar' (enabled only at step 3). Full screen on a phone.
 */
export function UploadVideoDialog({ logic, onClose, clock }: UploadVideoDialogProps) {
  const actorRef = useActorRef(logic, clock ? { clock } : {});
  const snapshot = useSelector(actorRef, (current) => current);
  const [values, setValues] = useState<VideoFormValues>(emptyVideoForm);
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const [subtitles, setSubtitles] = useState<SubtitleChoice[]>([]);
  const phone = useMediaQuery('(max-width: 639px)', false, { getInitialValueInEffect: false });

  const ended = snapshot.status === 'done';
  useEffect(() => {
    if (ended) onClose();
  }, [ended, onClose]);

  const phase = phaseOf(snapshot);
  const step = stepOf(snapshot.value);
  const busy = snapshot.hasTag('busy');
  const { context } = snapshot;
  // After a failed Confirmar the messages follow the fields as they are corrected.
  const errors = context.errors ? validateVideoForm(values) : {};
  const cancel = () => actorRef.send({ type: 'upload.cancel' });
  // The video exists and some subtitle files were refused: only those can still change (R-UPL-11).
  const fixingSubtitles = phase === 'subtitlesRefused';
  const { savedSubtitles } = context;

  return (
    <Modal.Root opened={!ended} onClose={cancel} size="lg" fullScreen={phone} closeOnClickOutside={false} closeOnEscape={!busy}>
      <Modal.Overlay />
      <Modal.Content>
        {/* A div, not Mantine's <header> (the theme's ModalHeader default): the page's header stays the one banner landmark. */}
        <Modal.Header>
          <Modal.Title>{uploadMessages.title}</Modal.Title>
          {!busy && <Modal.CloseButton aria-label={appLabels.close} />}
        </Modal.Header>
        <Modal.Body>
          <Stack gap="md">
            <Stepper
              active={step}
              size={phone ? 'xs' : 'sm'}
              iconSize={phone ? 28 : undefined}
              labelPosition="bottom"
              allowNextStepsSelect={false}
              // On a phone the four steps share one row: no separators, labels small and wrapped.
              styles={phone ? PHONE_STEPPER : undefined}
            >
              <Stepper.Step label={uploadMessages.stepChoose} />
              <Stepper.Step label={uploadMessages.stepSession} loading={phase === 'requestingSession'} />
              <Stepper.Step label={uploadMessages.stepUploading} loading={phase === 'processing'} />
              <Stepper.Step label={uploadMessages.stepUploaded} loading={busy} />
            </Stepper>

            <StepContent snapshot={snapshot} phase={phase} send={actorRef.send} />

            <VideoFormFields
              values={values}
              onChange={setValues}
              errors={errors}
              disabled={busy || fixingSubtitles}
              thumbnail={{ file: thumbnail, onChange: setThumbnail }}
            />

            <SubtitleFilesSection
              value={subtitles}
              onChange={setSubtitles}
              disabled={busy}
              failures={fixingSubtitles ? context.subtitleFailures : []}
              saved={savedSubtitles}
            />

            {/* The buttons stay in view while the form scrolls. */}
            <Group
              justify="flex-end"
              gap="sm"
              pos="sticky"
              bottom={0}
              py="sm"
              bg="var(--mantine-color-body)"
              style={{ zIndex: 1, borderTop: '1px solid var(--mantine-color-default-border)' }}
            >
              <Button variant="default" onClick={cancel} disabled={busy}>
                {fixingSubtitles ? subtitleMessages.close : uploadMessages.cancel}
              </Button>
              {fixingSubtitles ? (
                <Button
                  onClick={() =>
                    actorRef.send({ type: 'upload.retrySubtitles', subtitles: subtitles.filter((entry) => !savedSubtitles.includes(entry.idioma)) })
                  }
                >
                  {subtitleMessages.retry}
                </Button>
              ) : (
                <Button
                  onClick={() => actorRef.send({ type: 'upload.confirm', values, thumbnail, subtitles })}
                  disabled={phase !== 'uploaded' && !busy}
                  loading={busy}
                >
                  {uploadMessages.confirm}
                </Button>
              )}
            </Group>
          </Stack>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}

interface StepContentProps {
  snapshot: UploadWizardSnapshot;
  phase: string;
  send: ReturnType<typeof useActorRef<typeof uploadWizardMachine>>['send'];
}

/** What the current step shows above the form. */
function StepContent({ snapshot, phase, send }: StepContentProps) {
  const { context } = snapshot;
  switch (phase) {
    case 'choosing':
      return (
        <Stack gap="xs">
          <Dropzone
            // The machine decides what it takes: a refused file (not a video, or several at once) is sent too.
            onDrop={(files) => files[0] && send({ type: 'upload.choose', file: files[0] })}
            onReject={(rejections) => rejections[0] && send({ type: 'upload.choose', file: rejections[0].file })}
            accept={ACCEPT}
            multiple={false}
            inputProps={{ 'aria-label': uploadMessages.dropzone }}
          >
            <Group justify="center" gap="md" mih={120} style={{ pointerEvents: 'none' }} wrap="nowrap">
              <Dropzone.Accept>
                <IconUpload size={40} stroke={1.5} />
              </Dropzone.Accept>
              <Dropzone.Reject>
                <IconAlertTriangle size={40} stroke={1.5} />
              </Dropzone.Reject>
              <Dropzone.Idle>
                <IconMovie size={40} stroke={1.5} />
              </Dropzone.Idle>
              <Text size="md" ta="center">
                {uploadMessages.dropzone}
              </Text>
            </Group>
          </Dropzone>
          {context.refusedFile !== null && (
            <Alert color="red" icon={<IconAlertTriangle size={18} />}>
              {uploadMessages.notAVideo(context.refusedFile)}
            </Alert>
          )}
        </Stack>
      );
    case 'requestingSession':
      return (
        <Stack gap="xs">
          <FileLine file={context.file} />
          <Group gap="sm">
            <Loader size="sm" />
            <Text>{uploadMessages.preparing}</Text>
          </Group>
        </Stack>
      );
    case 'sessionFailed':
      return (
        <Stack gap="xs">
          <FileLine file={context.file} />
          <Alert color="red" icon={<IconAlertTriangle size={18} />}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{uploadMessages.sessionFailed}</Text>
              <Button size="xs" onClick={() => send({ type: 'upload.retry' })}>
                {uploadMessages.retry}
              </Button>
            </Stack>
          </Alert>
        </Stack>
      );
    case 'refused':
      return (
        <Stack gap="xs">
          <FileLine file={context.file} />
          <Alert color="red" icon={<IconAlertTriangle size={18} />}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{context.refusal === 'too-large' ? uploadMessages.tooLarge : uploadMessages.invalidVideo}</Text>
              <Button size="xs" onClick={() => send({ type: 'upload.restart' })}>
                {uploadMessages.chooseAnother}
              </Button>
            </Stack>
          </Alert>
        </Stack>
      );
    case 'subtitlesRefused':
      return (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />}>
          <Stack gap={4}>
            <Text size="sm">{subtitleMessages.wizardRefused}</Text>
            <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
              {context.subtitleFailures.map((failure) => (
                <li key={failure.idioma}>
                  <Text size="sm">{subtitleMessages.fileFailed(failure.fileName, languageName(failure.idioma), subtitleRefusalMessage(failure))}</Text>
                </li>
              ))}
            </ul>
          </Stack>
        </Alert>
      );
    case 'cancelled':
    case 'created':
      return null;
    default:
      return <TransferProgress snapshot={snapshot} phase={phase} send={send} />;
  }
}

/** The chosen file's name and size. */
function FileLine({ file }: { file: File | null }) {
  if (!file) return null;
  return (
    <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
      {file.name} <Text span size="sm">({formatBytes(file.size)})</Text>
    </Text>
  );
}

/** Steps 2 and 3: the progress bar with the percentage and the rate, and what the transfer needs. */
function TransferProgress({ snapshot, phase, send }: StepContentProps) {
  const { context } = snapshot;
  const percent = percentOf(context);
  const rate = phase === 'uploading' ? formatRate(context.rate) : '';
  return (
    <Stack gap="xs">
      <FileLine file={context.file} />
      <Progress.Root size="lg">
        <Progress.Section
          value={percent}
          aria-label={uploadMessages.progress}
          color={phase === 'interrupted' ? 'orange' : undefined}
          animated={phase === 'uploading'}
          striped={phase === 'uploading'}
        />
      </Progress.Root>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          {uploadMessages.percent(percent)}
        </Text>
        {rate && (
          <Text size="sm">
            {rate}
          </Text>
        )}
      </Group>
      {phase === 'interrupted' && (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{uploadMessages.interrupted}</Text>
            <Button size="xs" onClick={() => send({ type: 'upload.retry' })}>
              {uploadMessages.retry}
            </Button>
          </Stack>
        </Alert>
      )}
      {phase === 'processing' && (
        <Stack gap={6}>
          <Group gap="sm">
            <Loader size="sm" />
            <Text>{context.processed === null ? uploadMessages.processing : uploadMessages.processingPercent(context.processed)}</Text>
          </Group>
          <Text size="sm" c="dimmed">
            {uploadMessages.qualitiesFollow}
          </Text>
          {context.processed !== null && (
            <Progress.Root size="sm">
              <Progress.Section value={context.processed} aria-label={uploadMessages.processingProgress} />
            </Progress.Root>
          )}
        </Stack>
      )}
      {phase === 'uploaded' && (
        <Stack gap={2}>
          <Text size="sm">{uploadMessages.uploaded}</Text>
          <Text size="sm" c="dimmed">
            {uploadMessages.qualitiesFollow}
          </Text>
        </Stack>
      )}
      {phase === 'saving' && (
        <Group gap="sm">
          <Loader size="sm" />
          <Text>{snapshot.matches({ saving: 'subtitles' }) ? subtitleMessages.saving : uploadMessages.saving}</Text>
        </Group>
      )}
    </Stack>
  );
}
