import type { ReactNode } from 'react';
import { Text, UnstyledButton } from '@mantine/core';
import { clockTime } from '../player/player-controls.tsx';

/** One line of the chapters or the transcript: its time and its words, a button that seeks there; the current one marked. */
export function TimedLine({ seconds, current, onSeek, children }: { seconds: number; current: boolean; onSeek: (seconds: number) => void; children: ReactNode }) {
  return (
    <UnstyledButton
      aria-current={current ? 'true' : undefined}
      onClick={() => onSeek(seconds)}
      w="100%"
      px="xs"
      py={6}
      style={{
        display: 'flex',
        gap: 12,
        alignItems: 'baseline',
        borderRadius: 4,
        borderInlineStart: `3px solid ${current ? 'var(--mantine-color-tao-filled)' : 'transparent'}`,
        background: current ? 'var(--mantine-color-tao-light)' : undefined,
        fontWeight: current ? 600 : undefined,
      }}
    >
      <Text component="span" size="sm" c="gray.7" style={{ fontVariantNumeric: 'tabular-nums', flex: 'none' }}>
        {clockTime(seconds)}
      </Text>
      <Text component="span" size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </UnstyledButton>
  );
}
