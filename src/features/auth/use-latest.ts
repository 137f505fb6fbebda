import { useLayoutEffect, useRef } from 'react';

/** A ref that always holds the latest value: lets a machine's provided action call the current prop. */
export function useLatest<T>(value: T) {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
