// Commands reach devices (ThingsBoard's server-side RPC). Queued commands are announced to every
// instance (downlinkNotices.ts); the one holding the device's MQTT connection sends
// `v1/devices/me/rpc/request/{id}` `{"method", "params"}` to it when it is subscribed to
// `v1/devices/me/rpc/request/+` (QoS 1: the PUBACK makes the command delivered); an HTTP device
// waiting on `GET /api/v1/{token}/rpc` gets it as the answer. The device answers on
// `v1/devices/me/rpc/response/{id}` (or `POST /api/v1/{token}/rpc/{id}`): ok, or failed when the
// answer has an `error` (logged). A device that comes back (subscribes again, or polls) gets its
// latest command of each method; commands not answered within their time to live expire.
import type { Database, Tx } from '../db/database.ts';
import {
  advanceCommands, answerCommands, expireCommands, pendingCommands, waitingCommands, waitingCommandsOfDevices,
  type CommandAnswer, type CommandRow, type RoutedCommand,
} from '../db/commandQueries.ts';
import type { DeviceIdentity } from '../db/deviceQueries.ts';
import type { CommandsNotice } from '../db/downlinkNotices.ts';
import { entityName } from '../db/entityQueries.ts';
import { writeEngineLog } from '../db/logQueries.ts';
import { deviceWaiters } from './deviceWaiters.ts';

/** How a message reaches a device's open MQTT sessions on this instance (the device transport). */
export interface DeviceDownlink {
  /** Open sessions of the device here. */
  sessionsOf(entityId: number): number;
  /** The devices with an open session here. */
  connectedDevices(): number[];
  /** Sends to every session of the device subscribed to a filter matching `topic`; QoS 1 counts the PUBACKs. */
  publishToDevice(entityId: number, topic: string, payload: string, options: { qos: 0 | 1 }): Promise<{ delivered: number }>;
}

export const RPC_REQUEST_TOPIC = 'v1/devices/me/rpc/request/';
export const RPC_RESPONSE_TOPIC = 'v1/devices/me/rpc/response/';
/** A gateway's commands for the devices behind it: `{"device", "data": {"id", "method", "params"}}`. */
export const GATEWAY_RPC_TOPIC = 'v1/gateway/rpc';
/** Longest an HTTP device may wait for a command (ThingsBoard's default is 10 s). */
export const MAX_POLL_MS = 60_000;
const EXPIRE_BATCH = 5_000;
/** Answers written by one statement, at most. */
const ANSWERS_PER_STATEMENT = 1_000;

export interface DeviceCommandsOptions {
  onError(error: unknown): void;
  /** In the log's transaction: a failed command's log row was written (notifications are queued here). */
  onLogged?(tx: Tx, tenantId: string, logIds: readonly number[]): Promise<void>;
  /** After the commit: a failed command was logged. */
  afterLogged?(): void;
}

interface WaitingAnswer extends CommandAnswer { tenantId: string; resolve(command: CommandRow | undefined): void; reject(error: unknown): void }

/** Writes a batch of one tenant's answers in `tx`: the commands answered, and whether a failure was logged. */
type WriteAnswers = (tx: Tx, answers: CommandAnswer[]) => Promise<{ commands: CommandRow[]; logged: boolean }>;

/**
 * Devices' answers written together: while one transaction writes the answers before them, those
 * that arrive meanwhile wait, and the next writes them all (one per tenant). Ten thousand lamps
 * answering the same minute's commands take a few statements, not ten thousand turns at the
 * database between the telemetry writer's batches.
 */
function answerWriter(db: Database, write: WriteAnswers, afterLogged: () => void) {
  const queue: WaitingAnswer[] = [];
  let writing = false;
  async function writeQueued() {
    writing = true;
    try {
      while (queue.length) {
        const batch = queue.splice(0, ANSWERS_PER_STATEMENT);
        const byTenant = new Map<string, WaitingAnswer[]>();
        for (const answer of batch) byTenant.set(answer.tenantId, [...(byTenant.get(answer.tenantId) ?? []), answer]);
        for (const [tenantId, answers] of byTenant) {
          // the first answer to a command counts, as if they had come one after another
          const seen = new Set<string>();
          const first = answers.filter((a) => !seen.has(`${a.entityId}:${a.id}`) && seen.add(`${a.entityId}:${a.id}`));
          try {
            const { commands, logged } = await db.tenantTx(tenantId, (tx) => write(tx, first));
            if (logged) afterLogged();
            const answered = new Map(commands.map((command) => [`${command.entity_id}:${command.id}`, command]));
            for (const answer of answers) {
              const key = `${answer.entityId}:${answer.id}`;
              answer.resolve(answered.get(key));
              answered.delete(key);
            }
          } catch (error) {
            for (const answer of answers) answer.reject(error);
          }
        }
      }
    } finally {
      writing = false;
    }
  }
  return (tenantId: string, answer: CommandAnswer) => new Promise<CommandRow | undefined>((resolve, reject) => {
    queue.push({ ...answer, tenantId, resolve, reject });
    if (!writing) void writeQueued();
  });
}

/** Whether a command goes through its device's gateway: the device has no connection here, its gateway has. */
const routedThroughGateway = (downlink: DeviceDownlink) => (command: CommandRow | RoutedCommand): command is RoutedCommand & { gateway_id: number; gateway_name: string } =>
  'gateway_id' in command && command.gateway_id !== null && command.gateway_name !== null
  && downlink.sessionsOf(command.entity_id) === 0 && downlink.sessionsOf(command.gateway_id) > 0;

export function deviceCommands(db: Database, downlink: DeviceDownlink, options: DeviceCommandsOptions) {
  const pollers = deviceWaiters<true>();
  const viaGateway = routedThroughGateway(downlink);

  /** Sends commands to the devices' MQTT sessions here (or their gateway's); those acknowledged become delivered. */
  async function send(tenantId: string, commands: (CommandRow | RoutedCommand)[]) {
    const outcomes = await Promise.all(commands.map(async (command) => {
      const request = { method: command.method, params: command.params };
      const { delivered } = viaGateway(command)
        ? await downlink.publishToDevice(command.gateway_id, GATEWAY_RPC_TOPIC, JSON.stringify({ device: command.gateway_name, data: { id: command.id, ...request } }), { qos: 1 })
        : await downlink.publishToDevice(command.entity_id, `${RPC_REQUEST_TOPIC}${command.id}`, JSON.stringify(request), { qos: 1 });
      return delivered > 0 ? command.id : undefined;
    }));
    await advanceCommands(db, tenantId, outcomes.filter((id): id is number => id !== undefined), 'delivered');
  }

  /** A failed command's log row, in the transaction that marks it failed; answers whether it was written. */
  async function logFailure(tx: Tx, command: CommandRow, response: unknown): Promise<boolean> {
    const error = (response as { error?: unknown }).error;
    const reason = typeof error === 'string' ? error.slice(0, 200) : JSON.stringify(error ?? null).slice(0, 200);
    const logId = await writeEngineLog(tx, {
      tenantId: command.tenant_id, entityId: command.entity_id, at: new Date().toISOString(), type: 'error', source: 'entity',
      message: `${command.method} failed: ${reason}`, eventKey: `command:${command.id}`,
      data: { event: 'command_failed', entity: await entityName(tx, command.entity_id), command: command.id, method: command.method, params: command.params, reason },
    });
    if (logId !== undefined) await options.onLogged?.(tx, command.tenant_id, [logId]);
    return logId !== undefined;
  }

  /** The answers written, and each failure logged with them: a failed command never lacks its log row. */
  const writeAnswer = answerWriter(db, async (tx, answers) => {
    const commands = await answerCommands(tx, answers);
    const responses = new Map(answers.map((answer) => [`${answer.entityId}:${answer.id}`, answer.response]));
    let logged = false;
    for (const command of commands) {
      if (command.status === 'failed' && await logFailure(tx, command, responses.get(`${command.entity_id}:${command.id}`))) logged = true;
    }
    return { commands, logged };
  }, () => options.afterLogged?.());

  return {
    /** An announcement of queued commands (any instance's): those for devices connected or waiting here go out. */
    async announced(payload: string) {
      const notice = JSON.parse(payload) as CommandsNotice;
      const commands = await waitingCommands(db, notice.t, notice.c);
      for (const command of commands) pollers.wake(command.entity_id, true);
      const here = commands.filter((command) => downlink.sessionsOf(command.entity_id) > 0 || viaGateway(command));
      if (here.length) await send(notice.t, here);
    },

    /**
     * Announcements may have been missed (this instance's listening connection was lost): the
     * devices connected here (and behind gateways connected here) get their waiting commands.
     */
    async resendWaiting() {
      const byTenant = new Map<string, RoutedCommand[]>();
      for (const command of await waitingCommandsOfDevices(db, downlink.connectedDevices())) {
        byTenant.set(command.tenant_id, [...(byTenant.get(command.tenant_id) ?? []), command]);
      }
      const here = [...byTenant].map(([tenantId, commands]) =>
        [tenantId, commands.filter((command) => downlink.sessionsOf(command.entity_id) > 0 || viaGateway(command))] as const);
      await Promise.all(here.map(([tenantId, commands]) => send(tenantId, commands)));
    },

    /** A device subscribed to a topic filter: to its RPC requests, and its latest command of each method goes out. */
    async subscribed(device: DeviceIdentity, topicFilter: string) {
      if (topicFilter !== `${RPC_REQUEST_TOPIC}+`) return;
      const pending = await pendingCommands(db, device.tenantId, device.entityId);
      if (pending.length) await send(device.tenantId, pending);
    },

    /** The device's answer to command `id`; a failure is logged. Answers whether the device had that command waiting. */
    async answer(device: DeviceIdentity, id: number, response: unknown): Promise<boolean> {
      return (await writeAnswer(device.tenantId, { entityId: device.entityId, id, response })) !== undefined;
    },

    /**
     * An HTTP device's wait: its latest waiting command (then delivered), or undefined after
     * `timeoutMs` without one. Woken by the announcement of a command for it, and looking again
     * every few seconds besides.
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
        await pollers.wait(device.entityId, Math.min(left, 5_000), signal);
      }
    },

    /** Marks commands past their time to live expired; answers whether more may be waiting. */
    async expire(): Promise<boolean> {
      return (await expireCommands(db, EXPIRE_BATCH)).length === EXPIRE_BATCH;
    },
  };
}

export type DeviceCommands = ReturnType<typeof deviceCommands>;
