// The devices of a cluster run (scripts/clusterRun.ts): real MQTT clients through the balancer,
// each publishing numbered points (`seq`) at QoS 1 and reconnecting by itself (also after a refused
// CONNACK: "server unavailable" while the database is away is meant to be tried again). What the
// platform acknowledged, when each device was connected, and which commands (setDim) the lamps
// received are recorded for the report (scripts/clusterReport.ts).
import mqtt, { type MqttClient } from 'mqtt';
import { closeSpan, isOpen, openSpan, type Ack, type CommandHeard, type Span } from './clusterReport.ts';

export interface FleetDevice { id: number; token: string; lamp: boolean }

export interface Fleet {
  /** Points acknowledged (PUBACK: stored), in the order of their acknowledgements. */
  acks: Ack[];
  sent(): number;
  /** Each device's connections, by entity id. */
  spans: Map<number, Span[]>;
  /** The setDim commands the lamps received. */
  commands: CommandHeard[];
  connected(): number;
  stopPublishing(): void;
  close(): void;
}

export function startFleet(mqttUrl: string, devices: FleetDevice[], ratePerSecond: number): Fleet {
  const acks: Ack[] = [];
  const commands: CommandHeard[] = [];
  const spans = new Map<number, Span[]>();
  const clients: MqttClient[] = devices.map((device) => {
    const deviceSpans: Span[] = [];
    spans.set(device.id, deviceSpans);
    const client = mqtt.connect(mqttUrl, {
      username: device.token, clientId: `cluster-${device.id}`, reconnectPeriod: 250, reconnectOnConnackError: true, connectTimeout: 5_000, keepalive: 10,
    });
    client.on('connect', () => {
      openSpan(deviceSpans);
      if (device.lamp) client.subscribe('v1/devices/me/rpc/request/+', { qos: 1 });
    });
    client.on('close', () => closeSpan(deviceSpans));
    client.on('error', () => {});
    client.on('message', (topic, payload) => {
      const id = topic.split('/').at(-1);
      const command = JSON.parse(payload.toString()) as { method?: string; params?: { level?: number } };
      if (command.method === 'setDim' && typeof command.params?.level === 'number') {
        commands.push({ entity: device.id, level: command.params.level, at: Date.now() });
      }
      client.publish(`v1/devices/me/rpc/response/${id}`, JSON.stringify({ ok: true }), { qos: 1 });
    });
    return client;
  });

  // Every 100 ms a tenth of the rate, the devices in turn; a point's ts is after its device's last.
  const last = new Map<number, { seq: number; ts: number }>();
  const perTick = ratePerSecond / 10;
  let sent = 0;
  let owed = 0;
  const publisher = setInterval(() => {
    owed += perTick;
    for (; owed >= 1; owed--) {
      const index = sent % devices.length;
      const device = devices[index];
      const previous = last.get(device.id) ?? { seq: 0, ts: 0 };
      const point = { seq: previous.seq + 1, ts: Math.max(Date.now(), previous.ts + 1) };
      last.set(device.id, point);
      sent++;
      const values = { seq: point.seq, power: point.seq % 20 < 10 ? 20 : 80 };
      clients[index].publish('v1/devices/me/telemetry', JSON.stringify({ ts: point.ts, values }), { qos: 1 }, (error) => {
        if (!error) acks.push({ entity: device.id, seq: point.seq, ts: point.ts, at: Date.now() });
      });
    }
  }, 100);

  return {
    acks,
    sent: () => sent,
    spans,
    commands,
    connected: () => [...spans.values()].filter(isOpen).length,
    stopPublishing: () => clearInterval(publisher),
    close() {
      clearInterval(publisher);
      for (const client of clients) client.end(true);
    },
  };
}
