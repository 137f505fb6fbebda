import { useCallback, useEffect, useMemo, useState } from 'react';
// The dialog's own CSS (its chunk loads only when it opens): what it adds to the signed-in area's.
import '@mantine/core/styles/Accordion.css';
import '@mantine/core/styles/LoadingOverlay.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/dropzone/styles.css';
import { Accordion, Alert, Button, Group, Loader, Modal, MultiSelect, Progress, Stack, Switch, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconMovie, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { ActorOptions, AnyActorLogic } from 'xstate';
import { percentOf, VIDEO_EXTENSIONS } from '../../../../machines/upload-queue/upload-file.machine.ts';
import { isRunning, type uploadQueueMachine } from '../../../../machines/upload-queue/upload-queue.machine.ts';
import { MAX_FILES, titleFromFileName } from '../../../../machines/upload-queue/upload-queue.rules.ts';
import type { QueueFile, UploadFileRef, UploadFileSnapshot } from '../../../../machines/upload-queue/upload-queue.types.ts';
import { validateVideoForm, type VideoFormValues } from '../../../../machines/video-form/video-form.rules.ts';
import { appLabels } from '../../../components/app-labels.ts';
import { subtitleMessages, uploadMessages, videoFormLabels } from '../../../lib/messages.ts';
import { tagsQuery } from '../videos.queries.ts';
import { languageName, type SubtitleChoice } from './subtitle-files.ts';
import { SubtitleFilesSection } from './subtitle-files-section.tsx';
import { subtitleRefusalMessage } from './subtitles.actors.ts';
import { formatBytes, formatRate } from './upload-format.ts';
import { emptyVideoForm, VideoFormFields } from './video-form-fields.tsx';

export interface UploadVideoDialogProps {
  /** The upload queue with its actors provided (the app's `createUploadQueueLogic`, or test doubles). */
  logic: typeof uploadQueueMachine;
  /** Called once the queue has ended (every video saved, or closed): the host unmounts the dialog. */
  onClose: () => void;
  /** Tests drive the machines' delays with a simulated clock. */
  clock?: ActorOptions<AnyActorLogic>['clock'];
}

/** What the dropzone offers in the file picker: videos (the queue decides what it takes). */
const ACCEPT = { 'video/*': [...VIDEO_EXTENSIONS] };

/** The tags and visibility of 'Para todos los archivos' (R-UPL-15). */
interface BatchValues {
  tags: number[];
  isVisible: boolean;
}

/** One file's form as the person left it; `own` says which batch fields the file overrides. */
interface FileForm {
  values: VideoFormValues;
  thumbnail: File | null;
  subtitles: SubtitleChoice[];
  own: { tags: boolean; isVisible: boolean };
}

const newForm = (name: string): FileForm => ({
  values: { ...emptyVideoForm, titulo: titleFromFileName(name) },
  thumbnail: null,
  subtitles: [],
  own: { tags: false, isVisible: false },
});

/** The values a file is confirmed with: its own, the batch's tags and visibility unless it overrides them. */
const effectiveValues = (form: FileForm, batch: BatchValues): VideoFormValues => ({
  ...form.values,
  tags: form.own.tags ? form.values.tags : batch.tags,
  isVisible: form.own.isVisible ? form.values.isVisible : batch.isVisible,
});

/**
 * 'Subir video' (R-UPL-1, R-UPL-12…19): the dropzone (several files at once), a row per file with
 * its state, percentage and rate, its own form (an accordion item each when there are several; the
 * form alone for one), 'Para todos los archivos' (tags, visibility), 'Cancelar' and 'Confirmar
 * todos'. Closing while files are on their way asks first. Full screen on a phone.
 */
export function UploadVideoDialog({ logic, onClose, clock }: UploadVideoDialogProps) {
  const actorRef = useActorRef(logic, clock ? { clock } : {});
  const { files, refused, overflow, saved, asking, ended } = useSelector(
    actorRef,
    (snapshot) => ({
      files: snapshot.context.files,
      refused: snapshot.context.refused,
      overflow: snapshot.context.overflow,
      saved: snapshot.context.saved.length,
      asking: snapshot.matches({ open: 'askingToClose' }),
      ended: snapshot.status === 'done',
    }),
    shallowEqual,
  );
  const [forms, setForms] = useState<Record<string, FileForm>>({});
  const [batch, setBatch] = useState<BatchValues>({ tags: [], isVisible: true });
  // Several files start collapsed: every row's state in view; a row opens its form.
  const [expanded, setExpanded] = useState<string | null>(null);
  const phone = useMediaQuery('(max-width: 639px)', false, { getInitialValueInEffect: false });

  useEffect(() => {
    if (ended) onClose();
  }, [ended, onClose]);

  // A form for each file as it arrives: its title from its name (R-UPL-15).
  useEffect(() => {
    setForms((current) => {
      const missing = files.filter((file) => !current[file.key]);
      if (missing.length === 0) return current;
      return { ...current, ...Object.fromEntries(missing.map((file) => [file.key, newForm(file.name)])) };
    });
  }, [files]);

  const setForm = useCallback((key: string, form: FileForm) => setForms((current) => ({ ...current, [key]: form })), []);
  const anySaving = files.some((file) => file.status === 'saving');
  const anyReady = files.some((file) => file.status === 'ready');
  const several = files.length > 1;
  const close = () => actorRef.send({ type: 'queue.close' });
  const add = (chosen: File[]) => chosen.length > 0 && actorRef.send({ type: 'queue.add', files: chosen });
  const confirmAll = () =>
    actorRef.send({
      type: 'queue.confirmAll',
      forms: files
        .filter((file) => forms[file.key])
        .map((file) => {
          const form = forms[file.key]!;
          return { key: file.key, values: effectiveValues(form, batch), thumbnail: form.thumbnail, subtitles: form.subtitles };
        }),
    });

  return (
    <>
      <Modal.Root opened={!ended} onClose={close} size="lg" fullScreen={phone} closeOnClickOutside={false} closeOnEscape={!anySaving && !asking}>
        <Modal.Overlay />
        <Modal.Content>
          {/* A div, not Mantine's <header> (the theme's ModalHeader default): the page's header stays the one banner landmark. */}
          <Modal.Header>
            <Modal.Title>{uploadMessages.title}</Modal.Title>
            {!anySaving && <Modal.CloseButton aria-label={appLabels.close} />}
          </Modal.Header>
          <Modal.Body>
            <Stack gap="md">
              <Stack gap="xs">
                <Dropzone
                  // The queue decides what it takes: a refused file (not a video) is sent too, for its message.
                  onDrop={() => {}}
                  // One event for the whole drop, in the order chosen: the refused ones named in it.
                  onDropAny={(accepted, rejections) => add([...accepted, ...rejections.map((rejection) => rejection.file)])}
                  accept={ACCEPT}
                  multiple
                  disabled={anySaving}
                  inputProps={{ 'aria-label': uploadMessages.dropzone }}
                >
                  <Group justify="center" gap="md" mih={files.length > 0 ? 56 : 120} style={{ pointerEvents: 'none' }} wrap="nowrap">
                    <Dropzone.Accept>
                      <IconUpload size={files.length > 0 ? 24 : 40} stroke={1.5} />
                    </Dropzone.Accept>
                    <Dropzone.Reject>
                      <IconAlertTriangle size={files.length > 0 ? 24 : 40} stroke={1.5} />
                    </Dropzone.Reject>
                    <Dropzone.Idle>
                      <IconMovie size={files.length > 0 ? 24 : 40} stroke={1.5} />
                    </Dropzone.Idle>
                    <Text size={files.length > 0 ? 'sm' : 'md'} ta="center">
                      {files.length > 0 ? uploadMessages.addMore : uploadMessages.dropzone}
                    </Text>
                  </Group>
                </Dropzone>
                {refused.map((name) => (
                  <Alert key={name} color="red" icon={<IconAlertTriangle size={18} />} role="alert">
                    {uploadMessages.notAVideo(name)}
                  </Alert>
                ))}
                {overflow > 0 && (
                  <Alert color="orange" icon={<IconAlertTriangle size={18} />} role="alert">
                    {uploadMessages.tooMany(MAX_FILES, overflow)}
                  </Alert>
                )}
                {saved > 0 && (
                  <Text size="sm" role="status">
                    {uploadMessages.savedSoFar(saved)}
                  </Text>
                )}
              </Stack>

              {several && <BatchFields value={batch} onChange={setBatch} disabled={anySaving} />}

              {several ? (
                <Accordion value={expanded} onChange={setExpanded} variant="separated" aria-label={uploadMessages.files}>
                  {files.map((file) => (
                    <Accordion.Item key={file.key} value={file.key}>
                      <Accordion.Control>
                        <FileSummary file={file} />
                      </Accordion.Control>
                      <Accordion.Panel>
                        {forms[file.key] && (
                          <FileItem file={file} form={forms[file.key]!} batch={batch} onFormChange={setForm} onRemove={(key) => actorRef.send({ type: 'queue.remove', key })} />
                        )}
                      </Accordion.Panel>
                    </Accordion.Item>
                  ))}
                </Accordion>
              ) : (
                files.map(
                  (file) =>
                    forms[file.key] && (
                      <Stack key={file.key} gap="md" aria-label={uploadMessages.files} role="group">
                        <FileSummary file={file} />
                        <FileItem file={file} form={forms[file.key]!} batch={batch} single onFormChange={setForm} onRemove={(key) => actorRef.send({ type: 'queue.remove', key })} />
                      </Stack>
                    ),
                )
              )}

              {/* The buttons stay in view while the forms scroll. */}
              <Group
                justify="flex-end"
                gap="sm"
                pos="sticky"
                bottom={0}
                py="sm"
                bg="var(--mantine-color-body)"
                style={{ zIndex: 1, borderTop: '1px solid var(--mantine-color-default-border)' }}
              >
                <Button variant="default" onClick={close} disabled={anySaving}>
                  {uploadMessages.cancel}
                </Button>
                <Button onClick={confirmAll} disabled={!anyReady && !anySaving} loading={anySaving}>
                  {several ? uploadMessages.confirmAll : uploadMessages.confirm}
                </Button>
              </Group>
            </Stack>
          </Modal.Body>
        </Modal.Content>
      </Modal.Root>

      <Modal
        opened={asking}
        onClose={() => actorRef.send({ type: 'queue.keep' })}
        title={uploadMessages.closeQuestion}
        centered
        zIndex={300}
        closeButtonProps={{ 'aria-label': appLabels.close }}
      >
        <Stack gap="md">
          <Text size="sm">{uploadMessages.closeDetail}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => actorRef.send({ type: 'queue.keep' })} data-autofocus>
              {uploadMessages.keepUploading}
            </Button>
            <Button color="red" onClick={() => actorRef.send({ type: 'queue.discard' })}>
              {uploadMessages.discardUploads}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** 'Para todos los archivos': the tags and the visibility every file gets unless it sets its own. */
function BatchFields({ value, onChange, disabled }: { value: BatchValues; onChange: (value: BatchValues) => void; disabled: boolean }) {
  const tags = useQuery(tagsQuery());
  const options = useMemo(() => (tags.data ?? []).map((tag) => ({ value: tag.id, label: tag.nombre })), [tags.data]);
  return (
    <Stack gap="xs" component="fieldset" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-md)', padding: 'var(--mantine-spacing-sm)', margin: 0 }}>
      <Text component="legend" fw={600} size="sm" px={4}>
        {uploadMessages.batch}
      </Text>
      <Text size="xs" c="dimmed">
        {uploadMessages.batchHint}
      </Text>
      <MultiSelect<number>
        label={videoFormLabels.etiquetas}
        data={options}
        value={value.tags}
        onChange={(next) => onChange({ ...value, tags: next })}
        searchable
        clearable
        hidePickedOptions
        nothingFoundMessage={videoFormLabels.noTags}
        disabled={disabled}
      />
      <Switch
        label={videoFormLabels.isVisible}
        checked={value.isVisible}
        disabled={disabled}
        onChange={(event) => onChange({ ...value, isVisible: event.currentTarget.checked })}
      />
    </Stack>
  );
}

interface FileView {
  snapshot: UploadFileSnapshot;
  phase: string;
  percent: number;
}

/** The file's state as its row shows it. */
function useFileView(ref: UploadFileRef): FileView {
  return useSelector(
    ref,
    (snapshot) => ({ snapshot, phase: phaseOf(snapshot), percent: percentOf(snapshot.context) }),
    (a, b) => a.snapshot === b.snapshot,
  );
}

/** The leaf state's name (`queued`, `uploading`, …, `saving`, `subtitlesRefused`, `saved`, `cancelled`). */
function phaseOf(snapshot: UploadFileSnapshot): string {
  const value = snapshot.value as string | { pending?: unknown; saving?: unknown };
  if (typeof value === 'string') return value;
  if (value.pending !== undefined) return typeof value.pending === 'string' ? value.pending : 'processing';
  return 'saving';
}

/** The short state of a file (R-UPL-13): 'En cola', 'Subiendo 43 %', 'Procesando…', 'Listo', 'Error'. */
function statusText(phase: string, percent: number): string {
  switch (phase) {
    case 'queued':
      return uploadMessages.statusQueued;
    case 'requestingSession':
      return uploadMessages.statusPreparing;
    case 'uploading':
      return uploadMessages.statusUploading(percent);
    case 'interrupted':
      return uploadMessages.statusInterrupted;
    case 'processing':
      return uploadMessages.statusProcessing;
    case 'ready':
      return uploadMessages.statusReady;
    case 'saving':
      return uploadMessages.statusSaving;
    case 'saved':
    case 'subtitlesRefused':
      return uploadMessages.statusSaved;
    default:
      return uploadMessages.statusError;
  }
}


/** A file's name, size, state and rate: the accordion item's title (or the single file's heading). */
function FileSummary({ file }: { file: QueueFile }) {
  const { snapshot, phase, percent } = useFileView(file.ref);
  const rate = phase === 'uploading' ? formatRate(snapshot.context.rate) : '';
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" data-file={file.name}>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {file.name} <Text span size="sm" c="dimmed">({formatBytes(snapshot.context.file.size)})</Text>
      </Text>
      <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
        {(phase === 'requestingSession' || phase === 'processing' || phase === 'saving') && <Loader size={14} />}
        {/* The page's own text colour: Mantine's green and orange shades fall short of 4.5:1 on white. */}
        <Text size="sm" fw={600} data-status={phase}>
          {statusText(phase, percent)}
        </Text>
        {rate && <Text size="xs">{rate}</Text>}
      </Group>
    </Group>
  );
}

interface FileItemProps {
  file: QueueFile;
  form: FileForm;
  batch: BatchValues;
  /** The only file: no accordion around it, its buttons named without the file's name. */
  single?: boolean;
  onFormChange: (key: string, form: FileForm) => void;
  onRemove: (key: string) => void;
}

/** One file: its progress, what it needs ('Reintentar', 'Quitar'), its messages and its form. */
function FileItem({ file, form, batch, single = false, onFormChange, onRemove }: FileItemProps) {
  const { snapshot, phase, percent } = useFileView(file.ref);
  const { context } = snapshot;
  const send = file.ref.send;
  const busy = snapshot.hasTag('busy');
  const fixingSubtitles = phase === 'subtitlesRefused';
  const values = effectiveValues(form, batch);
  // After a failed confirmation the messages follow the fields as they are corrected.
  const errors = context.errors ? validateVideoForm(values) : {};
  const transfer = ['uploading', 'interrupted', 'processing', 'ready', 'saving'].includes(phase);

  const change = (next: VideoFormValues) =>
    onFormChange(file.key, {
      ...form,
      values: next,
      // A field changed here is the file's own from then on; the batch's value no longer reaches it.
      own: { tags: form.own.tags || next.tags !== values.tags, isVisible: form.own.isVisible || next.isVisible !== values.isVisible },
    });

  return (
    <Stack gap="sm">
      {transfer && (
        <Stack gap={4}>
          <Progress.Root size="md">
            <Progress.Section
              value={percent}
              aria-label={uploadMessages.fileProgress(file.name)}
              color={phase === 'interrupted' ? 'orange' : undefined}
              animated={phase === 'uploading'}
              striped={phase === 'uploading'}
            />
          </Progress.Root>
          <Text size="sm" fw={500}>
            {uploadMessages.percent(percent)}
          </Text>
        </Stack>
      )}
      {phase === 'requestingSession' && (
        <Group gap="sm">
          <Loader size="sm" />
          <Text size="sm">{uploadMessages.preparing}</Text>
        </Group>
      )}
      {phase === 'processing' && (
        <Stack gap={6}>
          <Text size="sm">{context.processed === null ? uploadMessages.processing : uploadMessages.processingPercent(context.processed)}</Text>
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
      {phase === 'ready' && !context.saveFailed && (
        <Stack gap={2}>
          <Text size="sm">{uploadMessages.uploaded}</Text>
          <Text size="sm" c="dimmed">
            {uploadMessages.qualitiesFollow}
          </Text>
        </Stack>
      )}
      {phase === 'ready' && context.saveFailed && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
          {uploadMessages.saveFailed}
        </Alert>
      )}
      {phase === 'saving' && (
        <Group gap="sm">
          <Loader size="sm" />
          <Text size="sm">{snapshot.matches({ saving: 'subtitles' }) ? subtitleMessages.saving : uploadMessages.saving}</Text>
        </Group>
      )}
      {(phase === 'sessionFailed' || phase === 'interrupted') && (
        <Alert color={phase === 'interrupted' ? 'orange' : 'red'} icon={<IconAlertTriangle size={18} />} role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{phase === 'interrupted' ? uploadMessages.interrupted : uploadMessages.sessionFailed}</Text>
            <Button size="xs" onClick={() => send({ type: 'file.retry' })} aria-label={single ? undefined : uploadMessages.retryLabel(file.name)}>
              {uploadMessages.retry}
            </Button>
          </Stack>
        </Alert>
      )}
      {phase === 'refused' && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
          {context.refusal === 'too-large' ? uploadMessages.tooLarge : uploadMessages.invalidVideo}
        </Alert>
      )}
      {fixingSubtitles && (
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
            <Group gap="sm">
              <Button
                size="xs"
                onClick={() =>
                  send({ type: 'file.retrySubtitles', subtitles: form.subtitles.filter((entry) => !context.savedSubtitles.includes(entry.idioma)) })
                }
              >
                {subtitleMessages.retry}
              </Button>
              <Button size="xs" variant="default" onClick={() => send({ type: 'file.cancel' })}>
                {subtitleMessages.close}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}

      {/* A refused file cannot become a video: only 'Quitar' is left for it. */}
      {!fixingSubtitles && phase !== 'refused' && (
        <VideoFormFields
          values={values}
          onChange={change}
          errors={errors}
          disabled={busy}
          thumbnail={{ file: form.thumbnail, onChange: (thumbnail) => onFormChange(file.key, { ...form, thumbnail }) }}
        />
      )}
      {phase !== 'refused' && (
        <SubtitleFilesSection
          value={form.subtitles}
          onChange={(subtitles) => onFormChange(file.key, { ...form, subtitles })}
          disabled={busy}
          failures={fixingSubtitles ? context.subtitleFailures : []}
          saved={context.savedSubtitles}
        />
      )}
      {!busy && !fixingSubtitles && (isRunning(file) || file.status === 'ready' || file.status === 'stopped') && (
        <Group justify="flex-end">
          <Button size="xs" variant="subtle" color="red" onClick={() => onRemove(file.key)} aria-label={uploadMessages.removeLabel(file.name)}>
            {uploadMessages.remove}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
