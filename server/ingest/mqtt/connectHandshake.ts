// The CONNECT of a device and the CONNACK it gets. The access token is the user name (the password
// is not used); a missing or unknown token, an over-long client id or the database being away are
// refused in the codes of the device's protocol version. Client ids are namespaced by a hash of
// the token, so that a device of one tenant using the client id of another's cannot take over its
// session. A device that sends no client id gets one. Sessions are not kept after the connection
// (every session starts clean, an MQTT 5 session expiry is answered with 0) and will messages are
// accepted but never published: devices never hear from each other.
import type { IConnackPacket, IConnectPacket } from 'mqtt-packet';
import { createHash, randomUUID } from 'node:crypto';
import type { DeviceIdentity } from '../deviceIngest.ts';
import { tokenFingerprint, type IngestProblems } from '../ingestProblems.ts';
import type { DownlinkOptions } from './downlink.ts';
import type { MqttConnection } from './mqttConnection.ts';
import { connackRefusal, REASON, RETURN_CODE, type ConnectRefusal, type ProtocolVersion } from './reasonCodes.ts';
import type { TransportLimits } from './transportLimits.ts';

export interface Admission {
  device: DeviceIdentity;
  /** The client id namespaced by the token. */
  key: string;
  /** The client id the server chose for a device that sent none (told to MQTT 5 devices). */
  assignedClientId?: string;
  keepalive: number;
  /** What the device accepts of the server's messages (MQTT 5). */
  client: DownlinkOptions;
  /** The device asked for its session to outlive the connection (MQTT 5): it is told it does not. */
  askedForExpiry: boolean;
}

const namespaceOf = (token: string | undefined) => createHash('sha256').update(token ?? '').digest('hex').slice(0, 16);

/**
 * Checks the CONNECT and the token. Answers the admission, or undefined after sending the refusing
 * CONNACK and closing the connection.
 */
export async function admitConnect(
  connection: MqttConnection, packet: IConnectPacket, authenticate: (token: string | undefined) => Promise<DeviceIdentity | undefined>,
  limits: TransportLimits, problems: IngestProblems,
): Promise<Admission | undefined> {
  const version: ProtocolVersion = packet.protocolVersion ?? 4;
  connection.version = version;
  const from = `client from ${connection.remoteAddress}`;
  const refuse = (refusal: ConnectRefusal) => {
    const code = connackRefusal(version, refusal);
    connection.send(version === 5 ? { cmd: 'connack', sessionPresent: false, reasonCode: code } : { cmd: 'connack', sessionPresent: false, returnCode: code });
    connection.disconnect();
    return undefined;
  };

  const clientId = packet.clientId ?? '';
  if (clientId.length > limits.maxClientIdLength) {
    problems.report('protocol_error', from, `a client id of ${clientId.length} characters is over ${limits.maxClientIdLength}`);
    return refuse('bad_client_id');
  }
  // MQTT 3.1 requires a client id, MQTT 3.1.1 unless the session is clean (MQTT 3.1.1 §3.1.3.1).
  if (clientId === '' && (version === 3 || (version === 4 && !packet.clean))) {
    problems.report('protocol_error', from, 'no client id');
    return refuse('bad_client_id');
  }
  if (packet.properties?.authenticationMethod !== undefined) {
    problems.report('protocol_error', from, 'an authentication method (the access token is the user name)');
    return refuse('bad_authentication_method');
  }
  let device: DeviceIdentity | undefined;
  try {
    device = await authenticate(packet.username);
  } catch {
    return refuse('unavailable');
  }
  if (connection.isEnding()) return undefined;
  if (!device) {
    problems.report('bad_token', from, `unknown or missing access token (${tokenFingerprint(packet.username)})`);
    return refuse('bad_token');
  }
  const assignedClientId = clientId === '' ? `terrasight-${randomUUID()}` : undefined;
  return {
    device,
    key: `${namespaceOf(packet.username)}/${assignedClientId ?? clientId}`,
    assignedClientId,
    keepalive: packet.keepalive ?? 0,
    client: { receiveMaximum: packet.properties?.receiveMaximum, maximumPacketSize: packet.properties?.maximumPacketSize },
    askedForExpiry: (packet.properties?.sessionExpiryInterval ?? 0) > 0,
  };
}

/** The CONNACK accepting an admitted device. */
export function acceptance(version: ProtocolVersion, admission: Admission, limits: TransportLimits): IConnackPacket {
  if (version !== 5) return { cmd: 'connack', sessionPresent: false, returnCode: RETURN_CODE.accepted };
  return {
    cmd: 'connack', sessionPresent: false, reasonCode: REASON.success,
    properties: {
      maximumPacketSize: limits.maxPacketBytes,
      receiveMaximum: limits.receiveMaximum,
      topicAliasMaximum: 0,
      retainAvailable: false,
      wildcardSubscriptionAvailable: true,
      sharedSubscriptionAvailable: false,
      ...(admission.assignedClientId ? { assignedClientIdentifier: admission.assignedClientId } : {}),
      ...(admission.askedForExpiry ? { sessionExpiryInterval: 0 } : {}),
    },
  };
}
