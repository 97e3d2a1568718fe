// The one way a page or component listens to the live connection outside refine's liveProvider:
// a GraphQL subscription held while the component is mounted and `request` is given, renewed when
// the request changes; the newest `onData` hears each message (it may change on every render).
import { useEffect, useRef } from 'react';
import { liveConnection } from './liveConnection.ts';

export interface LiveRequest { query: string; variables?: Record<string, unknown> }

export function useLiveSubscription<TData>(request: LiveRequest | undefined, onData: (data: TData) => void): void {
  const handler = useRef(onData);
  handler.current = onData;
  const key = request === undefined ? undefined : JSON.stringify(request);
  useEffect(() => {
    if (key === undefined) return undefined;
    return liveConnection.subscribe<TData>(JSON.parse(key) as LiveRequest, (data) => handler.current(data));
  }, [key]);
}
