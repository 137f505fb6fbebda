import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Center, Code, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import type { OtpInfo } from '../../../machines/mfa/mfa.types.ts';
import { lazyWithPreload } from '../../lib/lazy-with-preload.tsx';
import { authMessages, genericError, mfaMessages } from '../../lib/first-screen-messages.ts';
import '../../lib/styles/mfa-modal-styles.ts';
import type { MfaActorRef } from './second-factor.ts';

export type { MfaActorRef, SecondFactorActorRef } from './second-factor.ts';

/** The QR code's library is needed by enrolment only (a first sign-in), not by each sign-in's prompt. */
const QrCode = lazyWithPreload(() => import('qrcode.react').then((module) => module.QRCodeSVG));
export const preloadQrCode = () => QrCode.preload();
const QR_SIZE = 168;

interface MfaModalProps {
  /** The running `mfa` child of the second factor (login or registration); the modal is open while it exists. */
  actorRef: MfaActorRef | undefined;
}

const ENROLMENT_STATES: readonly string[] = ['OTP_DISABLED', 'OTP_REQUIRED'];

/** The base32 secret of an otpauth:// URI, shown for manual entry. */
function secretOf(uri: string | undefined): string | null {
  if (!uri) return null;
  try {
    return new URL(uri).searchParams.get('secret');
  } catch {
    return null;
  }
}

/** The 'Autentificación MFA' modal (R-AUTH-4). */
export function MfaModal({ actorRef }: MfaModalProps) {
  // Keep showing the last actor's content while the modal fades out after it finished.
  const lastRef = useRef(actorRef);
  if (actorRef) lastRef.current = actorRef;
  const shown = lastRef.current;

  return (
    <Modal
      opened={actorRef !== undefined}
      onClose={() => actorRef?.send({ type: 'mfa.cancel' })}
      title={authMessages.mfaTitle}
      centered
      size="md"
    >
      {shown && <MfaBody key={shown.id} actorRef={shown} />}
    </Modal>
  );
}

function MfaBody({ actorRef }: { actorRef: MfaActorRef }) {
  const otp = useSelector(actorRef, (snapshot) => snapshot.context.otp);
  const noAccess = useSelector(actorRef, (snapshot) => snapshot.matches('noAccess'));
  const busy = useSelector(actorRef, (snapshot) => snapshot.hasTag('busy') || snapshot.status === 'done');
  const error = useSelector(actorRef, (snapshot) =>
    snapshot.matches({ entering: 'invalidCode' })
      ? mfaMessages.invalidCode
      : snapshot.matches({ entering: 'failed' })
        ? genericError
        : null,
  );
  const invalidCode = useSelector(actorRef, (snapshot) => snapshot.matches({ entering: 'invalidCode' }));
  const [code, setCode] = useState('');
  const codeRef = useRef<HTMLInputElement>(null);
  // A wrong code is cleared and the field focused, ready for the next one from the app.
  useEffect(() => {
    if (!invalidCode) return;
    setCode('');
    codeRef.current?.focus();
  }, [invalidCode]);

  const cancel = () => actorRef.send({ type: 'mfa.cancel' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actorRef.send({ type: 'mfa.submit', code });
  };

  const mode = noAccess
    ? 'noAccess'
    : ENROLMENT_STATES.includes(otp.state)
      ? 'enrolment'
      : otp.state === 'OTP_ACTIVED'
        ? 'prompt'
        : 'noAccess';

  if (mode === 'noAccess') {
    return (
      <Stack>
        <Text>{authMessages.noAccess}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel}>
            {authMessages.cancel}
          </Button>
        </Group>
      </Stack>
    );
  }

  const codeInput = (
    <TextInput
      ref={codeRef}
      placeholder={authMessages.mfaCodePlaceholder}
      aria-label={authMessages.mfaCodePlaceholder}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      maxLength={6}
      data-autofocus
      value={code}
      onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, ''))}
      disabled={busy}
    />
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {mode === 'enrolment' ? (
          <EnrolmentSteps otp={otp} codeInput={codeInput} />
        ) : (
          <>
            <Text>{authMessages.mfaPrompt}</Text>
            {codeInput}
          </>
        )}
        {error && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />}>
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel} disabled={busy}>
            {authMessages.cancel}
          </Button>
          <Button type="submit" loading={busy}>
            {authMessages.enter}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function EnrolmentSteps({ otp, codeInput }: { otp: OtpInfo; codeInput: ReactNode }) {
  const secret = secretOf(otp.uri);
  return (
    <>
      <Text>{authMessages.mfaSetup}</Text>
      <List type="ordered" spacing="md">
        <List.Item>{authMessages.mfaStepOpenApp}</List.Item>
        <List.Item>
          <Stack gap="xs">
            <Text span>{authMessages.mfaStepScan}</Text>
            {otp.uri && (
              <Center p="xs" bg="white">
                <QrCode
                  // Same room while the library loads: the steps do not move when the code appears.
                  fallback={<div style={{ width: QR_SIZE, height: QR_SIZE }} />}
                  value={otp.uri}
                  size={QR_SIZE}
                  marginSize={2}
                  title={authMessages.mfaQrLabel}
                  role="img"
                  aria-label={authMessages.mfaQrLabel}
                />
              </Center>
            )}
            {secret && (
              <Text size="sm">
                {authMessages.mfaManualKey} <Code style={{ wordBreak: 'break-all' }}>{secret}</Code>
              </Text>
            )}
          </Stack>
        </List.Item>
        <List.Item>
          <Stack gap="xs">
            <Text span>{authMessages.mfaStepType}</Text>
            {codeInput}
          </Stack>
        </List.Item>
      </List>
    </>
  );
}
