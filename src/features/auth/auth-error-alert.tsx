import '@mantine/core/styles/Alert.css';
import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** A sign-in form's error (R-AUTH-2 texts), in red. Loaded with the API client (sign-in-code.ts). */
export function AuthErrorAlert({ error }: { error: string }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />}>
      {error}
    </Alert>
  );
}
