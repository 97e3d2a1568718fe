// The GraphQL-over-WebSocket connection (graphql-ws protocol) on /graphql, with its status
// (SPEC §4: connecting, connected, disconnected, error) and automatic reconnection (SPEC §9:
// 1000 attempts, 50 s time-out). The token is read at every (re)connect, so a refreshed token
// is used. Changes made while the connection was down are never sent: after a reconnection the
// page reads afresh what it shows (`onReconnected`).
import { createClient } from 'graphql-ws';
import type { Client, SubscribePayload } from 'graphql-ws';
import { useSyncExternalStore } from 'react';
import { getAccessToken } from '../session/tokenStorage.ts';

export type LiveStatus = 'connecting' | 'connected' | 'disconnected' | 'error';

const LIVE_TIMEOUT_MS = 50_000;
const RETRY_ATTEMPTS = 1000;

function graphqlSocketUrl(): string {
  const protocol = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${protocol}://${window.location.host}/graphql`;
}

function createLiveConnection() {
  let client: Client | null = null;
  let status: LiveStatus = 'disconnected';
  const listeners = new Set<() => void>();
  const reconnectedListeners = new Set<() => void>();
  /** This client has been connected before: its next `connected` is a reconnection. */
  let wasConnected = false;

  function setStatus(next: LiveStatus): void {
    if (status === next) return;
    status = next;
    for (const listener of listeners) listener();
  }

  function open(): void {
    if (client || !getAccessToken()) return;
    setStatus('connecting');
    client = createClient({
      url: graphqlSocketUrl(),
      lazy: false,
      retryAttempts: RETRY_ATTEMPTS,
      shouldRetry: () => true,
      keepAlive: LIVE_TIMEOUT_MS,
      connectionAckWaitTimeout: LIVE_TIMEOUT_MS,
      connectionParams: () => ({ authorization: `Bearer ${getAccessToken() ?? ''}` }),
      on: {
        connecting: () => setStatus('connecting'),
        connected: () => {
          setStatus('connected');
          if (wasConnected) for (const listener of reconnectedListeners) listener();
          wasConnected = true;
        },
        error: () => setStatus('error'),
        closed: () => {
          if (status !== 'error') setStatus('disconnected');
        },
      },
    });
  }

  function close(): void {
    const closing = client;
    client = null;
    if (closing) void closing.dispose();
    wasConnected = false;
    setStatus('disconnected');
  }

  /** Runs a subscription; returns the function that ends it. Errors are only logged (SPEC §8). */
  function subscribe<TData>(payload: SubscribePayload, onData: (data: TData) => void): () => void {
    open();
    if (!client) return () => undefined;
    return client.subscribe<TData>(payload, {
      next: (result) => {
        if (result.data) onData(result.data as TData);
      },
      error: (error) => console.warn('Live subscription failed', error),
      complete: () => undefined,
    });
  }

  return {
    open,
    close,
    subscribe,
    getStatus: () => status,
    onStatusChange(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Calls `listener` after each reconnection (not the first connection). */
    onReconnected(listener: () => void): () => void {
      reconnectedListeners.add(listener);
      return () => {
        reconnectedListeners.delete(listener);
      };
    },
  };
}

export const liveConnection = createLiveConnection();

export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(liveConnection.onStatusChange, liveConnection.getStatus, liveConnection.getStatus);
}
