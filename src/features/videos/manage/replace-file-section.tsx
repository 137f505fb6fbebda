import { memo, useEffect, useState, type ReactNode } from 'react';
import '@mantine/core/styles/Fieldset.css';
import '@mantine/core/styles/Progress.css';
import { Alert, Button, FileButton, Fieldset, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconFileUpload, IconReplace } from '@tabler/icons-react';
import { useActorRef, useSelector } from '@xstate/react';
import { isVideoFile, percentOf, VIDEO_EXTENSIONS } from '../../../../machines/upload-queue/upload-file.machine.ts';
import { replaceFileMessages } from '../../../lib/messages.ts';
import { formatBytes, formatRate } from '../upload/upload-format.ts';
import type { Video } from '../videos.queries.ts';
import { discardUpload, type ReplaceFileLogic } from './replace-file.actors.ts';

export interface ReplaceFileSectionProps {
  /** Makes the upload machine of one video (`createReplaceFileLogic`, or test doubles). */
  logic: ReplaceFileLogic;
  videoId: number;
  /** The file was replaced: the video as the server answered it (its new asset, duration, thumbnail). */
  onReplaced?: (video: Video) => void;
}

/** What the chooser offers: videos by type or by the extensions the wizard takes. */
const ACCEPT = ['video/*', ...VIDEO_EXTENSIONS].join(',');

/**
 * 'Reemplazar archivo' in 'Editar video' (R-ADM-20…23): a video chosen here is uploaded and
 * processed as the wizard does, while the current file goes on playing; once it is ready,
 * 'Reemplazar archivo' swaps it (PUT /api/videos/{id}/archivo) and 'Cancelar' discards the upload.
 * It acts at once, apart from Guardar.
 */
// Memoized: the dialog's form renders again at each keystroke, and this section has nothing new to draw then.
export const ReplaceFileSection = memo(function ReplaceFileSection({ logic, videoId, onReplaced }: ReplaceFileSectionProps) {
  /** The file being uploaded; `key` starts a fresh machine for each choice. */
  const [chosen, setChosen] = useState<{ file: File; key: number } | null>(null);
  const [notAVideo, setNotAVideo] = useState<string | null>(null);
  const [replacedBy, setReplacedBy] = useState<string | null>(null);

  const choose = (file: File | null) => {
    if (!file) return;
    setReplacedBy(null);
    // R-UPL-2's rule, before anything is sent.
    if (!isVideoFile(file)) {
      setNotAVideo(file.name);
      return;
    }
    setNotAVideo(null);
    setChosen((was) => ({ file, key: (was?.key ?? 0) + 1 }));
  };

  return (
    <Fieldset legend={replaceFileMessages.section} p="sm">
      <Stack gap="xs">
        {chosen ? (
          <ReplaceUpload
            key={chosen.key}
            logic={logic}
            videoId={videoId}
            file={chosen.file}
            onCancelled={() => setChosen(null)}
            onSaved={(video) => {
              setChosen(null);
              setReplacedBy(chosen.file.name);
              onReplaced?.(video);
            }}
          />
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {replaceFileMessages.hint}
            </Text>
            <Group>
              <FileButton onChange={choose} accept={ACCEPT}>
                {(props) => (
                  <Button {...props} variant="default" size="sm" leftSection={<IconFileUpload size={16} aria-hidden />} aria-label={replaceFileMessages.chooseLabel}>
                    {replaceFileMessages.choose}
                  </Button>
                )}
              </FileButton>
            </Group>
          </>
        )}
        {notAVideo !== null && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} p="xs" role="alert">
            {replaceFileMessages.notAVideo(notAVideo)}
          </Alert>
        )}
        {/* Always there, so a screen reader hears the outcome. */}
        <div role="status" aria-live="polite">
          {replacedBy !== null && (
            <Group gap={6} wrap="nowrap">
              <IconCheck size={16} color="var(--mantine-color-green-8)" aria-hidden style={{ flexShrink: 0 }} />
              <Text size="sm" c="green.9" style={{ overflowWrap: 'anywhere' }}>
                {replaceFileMessages.replacedNotice(replacedBy)}
              </Text>
            </Group>
          )}
        </div>
      </Stack>
    </Fieldset>
  );
});

interface ReplaceUploadProps {
  logic: ReplaceFileLogic;
  videoId: number;
  file: File;
  onCancelled: () => void;
  onSaved: (video: Video) => void;
}

/** One chosen file: its upload machine, started at once (no queue), and what it shows at each step. */
function ReplaceUpload({ logic, videoId, file, onCancelled, onSaved }: ReplaceUploadProps) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const [machine] = useState(() => logic(videoId, setRefusal));
  const actorRef = useActorRef(machine, { input: { key: `replace-${videoId}`, file, queue: null } });
  const snapshot = useSelector(actorRef, (current) => current);
  const { context } = snapshot;
  const send = actorRef.send;

  const saved = snapshot.matches('saved') ? context.video : null;
  const cancelled = snapshot.matches('cancelled');
  useEffect(() => {
    if (saved) onSaved(saved);
    else if (cancelled) onCancelled();
    // The host's callbacks change at each of its renders: only a new outcome calls them.
  }, [saved, cancelled]);

  // The dialog closed (Cancelar, Guardar, Escape) before the swap: the upload nobody confirmed is discarded.
  useEffect(
    () => () => {
      const last = actorRef.getSnapshot();
      if (last.matches('pending') && last.context.session) discardUpload(last.context.session.assetId);
    },
    [actorRef],
  );

  const busy = snapshot.hasTag('busy');
  const percent = percentOf(context);
  const uploading = snapshot.matches({ pending: 'uploading' });
  const interrupted = snapshot.matches({ pending: 'interrupted' });
  const processing = snapshot.matches({ pending: 'processing' });
  const ready = snapshot.matches({ pending: 'ready' });
  const transfer = uploading || interrupted || processing || ready || busy;
  const rate = uploading ? formatRate(context.rate) : '';
  const cancel = (
    <Button size="xs" variant="default" onClick={() => send({ type: 'file.cancel' })} disabled={busy} aria-label={replaceFileMessages.cancelLabel}>
      {replaceFileMessages.cancel}
    </Button>
  );

  return (
    <Stack gap="xs" aria-busy={!ready && !snapshot.matches({ pending: 'refused' })}>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {file.name}{' '}
        <Text span size="sm">
          ({formatBytes(file.size)})
        </Text>
      </Text>
      {snapshot.matches({ pending: 'queued' }) || snapshot.matches({ pending: 'requestingSession' }) ? (
        <Group gap="sm">
          <Loader size="xs" />
          <Text size="sm">{replaceFileMessages.preparing}</Text>
        </Group>
      ) : null}
      {snapshot.matches({ pending: 'sessionFailed' }) && (
        <RetryAlert color="red" message={replaceFileMessages.sessionFailed} onRetry={() => send({ type: 'file.retry' })} cancel={cancel} />
      )}
      {snapshot.matches({ pending: 'refused' }) && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} p="xs">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{context.refusal === 'too-large' ? replaceFileMessages.tooLarge : replaceFileMessages.invalidVideo}</Text>
            <Button size="xs" variant="default" onClick={() => send({ type: 'file.cancel' })}>
              {replaceFileMessages.chooseAnother}
            </Button>
          </Stack>
        </Alert>
      )}
      {transfer && (
        <>
          <Progress.Root size="md">
            <Progress.Section
              value={percent}
              aria-label={replaceFileMessages.progress}
              color={interrupted ? 'orange' : undefined}
              animated={uploading}
              striped={uploading}
            />
          </Progress.Root>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={500}>
              {replaceFileMessages.percent(percent)}
            </Text>
            {rate && <Text size="sm">{rate}</Text>}
          </Group>
        </>
      )}
      {interrupted && (
        <RetryAlert color="orange" message={replaceFileMessages.interrupted} onRetry={() => send({ type: 'file.retry' })} cancel={cancel} />
      )}
      {processing && (
        <Group gap="sm">
          <Loader size="xs" />
          <Text size="sm">{context.processed === null ? replaceFileMessages.processing : replaceFileMessages.processingPercent(context.processed)}</Text>
        </Group>
      )}
      {ready && <Text size="sm">{replaceFileMessages.ready}</Text>}
      {(uploading || processing || ready) && (
        <Text size="sm" c="dimmed">
          {ready ? '' : `${replaceFileMessages.keepsPlaying} `}
          {replaceFileMessages.closeDiscards}
        </Text>
      )}
      {ready && context.saveFailed && refusal !== null && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} p="xs" role="alert">
          {refusal}
        </Alert>
      )}
      {(uploading || processing || ready || busy) && (
        <Group gap="xs">
          {(ready || busy) && (
            <Button size="xs" leftSection={<IconReplace size={16} aria-hidden />} loading={busy} onClick={() => send({ type: 'file.confirm', values: null, thumbnail: null, subtitles: [] })}>
              {replaceFileMessages.replace}
            </Button>
          )}
          {cancel}
        </Group>
      )}
      {busy && (
        <Text size="sm" role="status">
          {replaceFileMessages.replacing}
        </Text>
      )}
    </Stack>
  );
}

/** A step that failed and can be tried again: its message, 'Reintentar' and the section's cancel. */
function RetryAlert({ color, message, onRetry, cancel }: { color: string; message: string; onRetry: () => void; cancel: ReactNode }) {
  return (
    <Alert color={color} icon={<IconAlertTriangle size={18} />} p="xs">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        <Group gap="xs">
          <Button size="xs" onClick={onRetry}>
            {replaceFileMessages.retry}
          </Button>
          {cancel}
        </Group>
      </Stack>
    </Alert>
  );
}
