// Which of a board's components have said they are drawn (renderers' onReady): the print view
// prints once all of them have.
import { useCallback, useMemo, useState } from 'react';

export function useReadyComponents() {
  const [ready, setReady] = useState<ReadonlySet<number>>(new Set());
  const callbacks = useMemo(() => new Map<number, () => void>(), []);
  /** A stable onReady for one component. */
  const onReadyOf = useCallback((id: number) => {
    let callback = callbacks.get(id);
    if (!callback) {
      callback = () => setReady((current) => (current.has(id) ? current : new Set(current).add(id)));
      callbacks.set(id, callback);
    }
    return callback;
  }, [callbacks]);
  return { ready, onReadyOf };
}
