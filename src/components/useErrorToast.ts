// Errors are told one way (SPEC §8, §9): an error toast for 5 s below the navigation bar, as a failed
// request is told by refine's notifications (App.tsx) — not antd's shorter `message`. The same text
// twice is one toast.
import { useNotification } from '@refinedev/core';
import { useCallback } from 'react';

export function useErrorToast(): (text: string) => void {
  const { open } = useNotification();
  return useCallback((text: string) => open?.({ type: 'error', message: text, key: `error:${text}` }), [open]);
}
