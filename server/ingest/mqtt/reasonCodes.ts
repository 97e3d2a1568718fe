// The answers the device transport gives, in each protocol's codes: MQTT 3.1/3.1.1 CONNACK return
// codes and SUBACK's failure code, MQTT 5 reason codes (MQTT 5 §2.4).

export type ProtocolVersion = 3 | 4 | 5;

/** MQTT 3.1/3.1.1 CONNACK return codes. */
export const RETURN_CODE = {
  accepted: 0,
  unacceptableProtocolVersion: 1,
  identifierRejected: 2,
  serverUnavailable: 3,
  notAuthorised: 5,
} as const;

/** MQTT 3.1.1 SUBACK: the subscription is refused. */
export const SUBACK_FAILURE = 0x80;

/** MQTT 5 reason codes the transport sends. */
export const REASON = {
  success: 0x00,
  noSubscriptionExisted: 0x11,
  unspecifiedError: 0x80,
  malformedPacket: 0x81,
  protocolError: 0x82,
  unsupportedProtocolVersion: 0x84,
  clientIdentifierNotValid: 0x85,
  badUserNameOrPassword: 0x86,
  notAuthorized: 0x87,
  serverUnavailable: 0x88,
  serverShuttingDown: 0x8b,
  badAuthenticationMethod: 0x8c,
  keepAliveTimeout: 0x8d,
  sessionTakenOver: 0x8e,
  topicFilterInvalid: 0x8f,
  topicNameInvalid: 0x90,
  packetIdentifierNotFound: 0x92,
  receiveMaximumExceeded: 0x93,
  topicAliasInvalid: 0x94,
  packetTooLarge: 0x95,
  administrativeAction: 0x98,
  sharedSubscriptionsNotSupported: 0x9e,
} as const;

/** Why a CONNECT is refused. */
export type ConnectRefusal = 'unsupported_version' | 'bad_client_id' | 'bad_token' | 'unavailable' | 'bad_authentication_method';

const CONNACK_V3: Record<ConnectRefusal, number> = {
  unsupported_version: RETURN_CODE.unacceptableProtocolVersion,
  bad_client_id: RETURN_CODE.identifierRejected,
  bad_token: RETURN_CODE.notAuthorised,
  unavailable: RETURN_CODE.serverUnavailable,
  bad_authentication_method: RETURN_CODE.notAuthorised,
};

const CONNACK_V5: Record<ConnectRefusal, number> = {
  unsupported_version: REASON.unsupportedProtocolVersion,
  bad_client_id: REASON.clientIdentifierNotValid,
  bad_token: REASON.badUserNameOrPassword,
  unavailable: REASON.serverUnavailable,
  bad_authentication_method: REASON.badAuthenticationMethod,
};

/** The CONNACK code refusing a connection of this protocol version. */
export const connackRefusal = (version: ProtocolVersion, refusal: ConnectRefusal) =>
  (version === 5 ? CONNACK_V5 : CONNACK_V3)[refusal];
