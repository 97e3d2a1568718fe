// Commands reach devices (ThingsBoard's server-side RPC): over MQTT as
// `v1/devices/me/rpc/request/{id}` `{"method", "params"}` to a device subscribed to
// `v1/devices/me/rpc/request/+` (QoS 1: its PUBACK makes the command delivered), with the shared
// attributes they set pushed on `v1/devices/me/attributes`; over HTTP a device asks
// `GET /api/v1/{token}/rpc` and waits there for one. The device answers on
// `v1/devices/me/rpc/response/{id}` (or `POST /api/v1/{token}/rpc/{id}`): ok, or failed when the
// answer has an `error`. A device that comes back (subscribes again, or polls) gets its latest
// command of each method; commands not answered within their time to live expire. Each failed
// command is logged.
import type { Database, Tx } from '../db/database.ts';
import {
  advanceCommands, answerCommand, expireCommands, pendingCommands, type CommandRow,
} from '../db/commandQueries.ts';
import type { DeviceIdentity } from '../db/deviceQueries.ts';
import { writeEngineLog } from '../db/logQueries.ts';

/** How a message reaches a device's open MQTT sessions (the device transport). */
export interface DeviceDownlink {
  /** Sends to every session of the device subscribed to a filter matching `topic`; QoS 1 counts the PUBACKs. */
  publishToDevice(entityId: number, topic: string, payload: string, options: { qos: 0 | 1 }): Promise<{ delivered: number }>;
}

export const RPC_REQUEST_TOPIC = 'v1/devices/me/rpc/request/';
export const RPC_RESPONSE_TOPIC = 'v1/devices/me/rpc/response/';
const ATTRIBUTES_TOPIC = 'v1/devices/me/attributes';
/** Longest an HTTP device may wait for a command (ThingsBoard's default is 10 s). */
export const MAX_POLL_MS = 60_000;
const EXPIRE_BATCH = 5_000;

const requestPayload = (command: CommandRow) => JSON.stringify({ method: command.method, params: command.params });

export interface DeviceCommandsOptions {
  onError(error: unknown): void;
  /** In the log's transaction: a failed command's log row was written (notifications are queued here). */
  onLogged?(tx: Tx, tenantId: string, logId: number): Promise<void>;
  /** After the commit: a failed command was logged. */
  afterLogged?(): void;
}

export function deviceCommands(db: Database, downlink: DeviceDownlink, options: DeviceCommandsOptions) {
  /** HTTP devices waiting for a command, by entity id. */
  const waiting = new Map<number, Set<() => void>>();

  /** Sends commands to the devices' MQTT sessions; those delivered are marked so, the others stay queued for a poll or a return. */
  async function send(tenantId: string, commands: CommandRow[]) {
    for (const command of commands) for (const wake of waiting.get(command.entity_id) ?? []) wake();
    const outcomes = await Promise.all(commands.map(async (command) => {
      const pushed = command.method === 'setDim' ? downlink.publishToDevice(command.entity_id, ATTRIBUTES_TOPIC, JSON.stringify({ dim_level: command.params.level }), { qos: 0 }) : undefined;
      const { delivered } = await downlink.publishToDevice(command.entity_id, `${RPC_REQUEST_TOPIC}${command.id}`, requestPayload(command), { qos: 1 });
      await pushed;
      return delivered > 0 ? command.id : undefined;
    }));
    await advanceCommands(db, tenantId, outcomes.filter((id): id is number => id !== undefined), 'delivered');
  }

  return {
    send: (tenantId: string, commands: CommandRow[]) => send(tenantId, commands).catch(options.onError),

    /** A device subscribed to its RPC requests: its latest command of each method goes out. */
    async deviceSubscribed(device: DeviceIdentity, topicFilter: string) {
      if (topicFilter !== `${RPC_REQUEST_TOPIC}+`) return; // the one RPC filter a device may take
      const pending = await pendingCommands(db, device.tenantId, device.entityId);
      if (pending.length) await send(device.tenantId, pending);
    },

    /** The device's answer to command `id`; a failure is logged. Answers whether the device had that command waiting. */
    async answer(device: DeviceIdentity, id: number, response: unknown): Promise<boolean> {
      const command = await answerCommand(db, device.tenantId, device.entityId, id, response);
      if (command?.status === 'failed') await logFailure(command, response);
      return command !== undefined;
    },

    /**
     * An HTTP device's poll: its latest waiting command (then delivered), or undefined after
     * `timeoutMs` without one. Woken when a command for it is sent by this instance; another
     * instance's is seen at the next look, every second.
     */
    async poll(device: DeviceIdentity, timeoutMs: number, signal?: AbortSignal): Promise<CommandRow | undefined> {
      const until = Date.now() + Math.min(timeoutMs, MAX_POLL_MS);
      for (;;) {
        const [command] = await pendingCommands(db, device.tenantId, device.entityId);
        if (command) {
          await advanceCommands(db, device.tenantId, [command.id], 'delivered');
          return command;
        }
        const left = until - Date.now();
        if (left <= 0 || signal?.aborted) return undefined;
        await new Promise<void>((resolve) => {
          const set = waiting.get(device.entityId) ?? new Set();
          const done = () => {
            clearTimeout(timer);
            set.delete(done);
            if (!set.size) waiting.delete(device.entityId);
            signal?.removeEventListener('abort', done);
            resolve();
          };
          const timer = setTimeout(done, Math.min(left, 1_000));
          set.add(done);
          waiting.set(device.entityId, set);
          signal?.addEventListener('abort', done);
        });
      }
    },

    /** Marks commands past their time to live expired (a pass of the engine's loop); answers whether more may be waiting. */
    async expire(): Promise<boolean> {
      const expired = await expireCommands(db, EXPIRE_BATCH);
      return expired.length === EXPIRE_BATCH;
    },
  };

  async function logFailure(command: CommandRow, response: unknown) {
    const error = (response as { error?: unknown }).error;
    const reason = typeof error === 'string' ? error.slice(0, 200) : JSON.stringify(error ?? null).slice(0, 200);
    const logged = await db.tenantTx(command.tenant_id, async (tx) => {
      const logId = await writeEngineLog(tx, {
        tenantId: command.tenant_id, entityId: command.entity_id, at: new Date().toISOString(), type: 'error', source: 'entity',
        message: `${command.method} failed: ${reason}`, eventKey: `command:${command.id}`,
        data: { command: command.id, method: command.method, params: command.params, result: 'failed', reason },
      });
      if (logId !== undefined) await options.onLogged?.(tx, command.tenant_id, logId);
      return logId !== undefined;
    });
    if (logged) options.afterLogged?.();
  }
}

export type DeviceCommands = ReturnType<typeof deviceCommands>;
