// What a device's PUBLISH does, by topic (ThingsBoard's device API): telemetry becomes points for
// the writer, attributes and gateway messages update entities. Receiving a message resolves once
// the next one may be read: telemetry once its points are in the writer's queue (which waits while
// the queue is full), an update once applied. Its receipt then says when it may be acknowledged:
// telemetry once committed, so that a PUBACK means "stored".
//
// Telemetry becomes queued points one message at a time (the writer's queue applies back-pressure
// through it); attribute and connection messages, each a database update of its own, a few at a
// time; answers to commands, written together, many at a time. Either way, what waits is the
// packet, not its parsed content.
import { isReadOnlyRefusal } from '../../services/maintenanceGuard.ts';
import { admissionGate } from '../../admissionGate.ts';
import { deviceLabel, type DeviceIdentity, type DeviceIngest, type Points } from '../deviceIngest.ts';
import { PAYLOAD_LIMITS, parseJson, type PayloadProblem } from '../../telemetry/devicePayload.ts';
import type { IngestProblems } from '../ingestProblems.ts';
import type { TelemetryWriter } from '../../telemetry/telemetryWriter.ts';

/** Attribute and connection messages handled at once, at most (each is a database update). */
const UPDATES_AT_ONCE = 16;
/**
 * Devices' answers to commands handled at once, at most. Those waiting together are written by one
 * statement (server/ingest/deviceCommands.ts), so many at once cost a few statements; behind the
 * gate of the updates, 16 at a time each waiting its turn at a busy database, ten thousand lamps
 * answering one minute's commands took minutes.
 */
const ANSWERS_AT_ONCE = 1_000;
const isAnswer = (topic: string) => topic.startsWith('v1/devices/me/rpc/response/') || topic === 'v1/gateway/rpc';

export interface Receipt {
  /** Settles when the message may be acknowledged; rejects when it could not be stored. */
  stored: Promise<void>;
}

/** Receives one message of `device`; rejects when it could not be taken (database unavailable). */
export type ReceiveMessage = (device: DeviceIdentity, topic: string, payload: Buffer) => Promise<Receipt>;

/** What a device asks or answers besides telemetry and attributes (server/ingest/deviceRequests.ts). */
export interface DeviceRequestHandler {
  handles(topic: string): boolean;
  handle(device: DeviceIdentity, topic: string, json: unknown): Promise<PayloadProblem[]>;
}

const STORED: Receipt = { stored: Promise.resolve() };

/** `requests()`: the handler of the devices' requests, once there is one. */
export function devicePublish(ingest: DeviceIngest, writer: TelemetryWriter, problems: IngestProblems, requests: () => DeviceRequestHandler | undefined): ReceiveMessage {
  const telemetryGate = admissionGate(1);
  const updateGate = admissionGate(UPDATES_AT_ONCE);
  const answerGate = admissionGate(ANSWERS_AT_ONCE);

  return async (device, topic, payload) => {
    const who = deviceLabel(device);
    const refuse = (list: PayloadProblem[]) => problems.reportAll(list, who);
    const parsed = () => {
      if (payload.length > PAYLOAD_LIMITS.messageBytes) {
        problems.report('too_large', who, `a message of ${payload.length} bytes is over ${PAYLOAD_LIMITS.messageBytes}`);
        return undefined;
      }
      const json = parseJson(payload);
      if (json.value === undefined) refuse(json.problems);
      return json.value;
    };
    const store = async (points: (json: unknown) => Points | Promise<Points>): Promise<Receipt> => {
      const ticket = await telemetryGate.run(async () => {
        const json = parsed();
        if (json === undefined) return undefined;
        const accepted = await points(json);
        refuse(accepted.problems);
        const queued = await writer.enqueue(accepted.points);
        ingest.telemetryAccepted(device, accepted.points);
        return queued;
      });
      // QoS 0 does not wait for the commit: the writer reports failed batches itself.
      return ticket ? { stored: ticket.committed } : STORED;
    };
    const update = async (apply: (json: unknown) => Promise<PayloadProblem[]>, gate = updateGate): Promise<Receipt> => {
      await gate.run(async () => {
        const json = parsed();
        if (json === undefined) return;
        try {
          refuse(await apply(json));
        } catch (error) {
          // MQTT has no 503: during read-only maintenance a device's attributes are dropped, and counted
          if (!isReadOnlyRefusal(error)) throw error;
          problems.report('read_only', who, 'attributes are not stored during read-only maintenance');
        }
      });
      return STORED;
    };
    switch (topic) {
      case 'v1/devices/me/telemetry': return store((json) => ingest.telemetry(device, json));
      case 'v1/gateway/telemetry': return store((json) => ingest.gatewayTelemetry(device, json));
      case 'v1/devices/me/attributes': return update((json) => ingest.attributes(device, json));
      case 'v1/gateway/attributes': return update((json) => ingest.gatewayAttributes(device, json));
      case 'v1/gateway/connect': return update((json) => ingest.gatewayConnection(device, json, true));
      case 'v1/gateway/disconnect': return update((json) => ingest.gatewayConnection(device, json, false));
      default: {
        const handler = requests();
        if (handler?.handles(topic)) return update((json) => handler.handle(device, topic, json), isAnswer(topic) ? answerGate : updateGate);
        problems.report('unknown_topic', who, `nothing is done with topic ${topic.slice(0, 100)}`);
        return STORED;
      }
    }
  };
}
