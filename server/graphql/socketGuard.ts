// The GraphQL WebSocket speaks graphql-ws' protocol (`graphql-transport-ws`), and mercurius'
// connection takes the client's frames on trust: a bad frame was answered outside the protocol or
// logged as a server failure, a second connection_init started a second keep-alive, a reused id
// orphaned a running subscription, and a subscription's document was neither bounded nor
// validated. Every frame is checked here first, as graphql-ws' own server does, and only a
// well-formed message reaches mercurius: a frame outside the protocol closes the socket with the
// protocol's 44xx code; a subscribe whose document or variables do not fit is answered with an
// `error` message holding the errors POST /graphql would give.
import { EventEmitter } from 'node:events';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getVariableValues, GraphQLError, parse, specifiedRules, validate, type GraphQLSchema } from 'graphql';
import { CloseCode, GRAPHQL_TRANSPORT_WS_PROTOCOL, MessageType, parseMessage, type Message, type SubscribePayload } from 'graphql-ws';
import type { RawData, WebSocket } from 'ws';
import { refusePrototypeKeys } from '../api/clientJson.ts';
import { formatGraphqlErrors } from './errorFormatter.ts';
import { selectedOperation } from './graphqlRequest.ts';
import { graphqlParseOptions, graphqlValidationRules } from './limits.ts';

/** What a client may send; the other message types are the server's. */
const CLIENT_MESSAGES = new Set<string>([MessageType.ConnectionInit, MessageType.Ping, MessageType.Pong, MessageType.Subscribe, MessageType.Complete]);
/** mercurius writes every message as JSON.stringify({ type, id, payload }); its ids are the guard's. */
const SENT = /^\{"type":"(\w+)"(?:,"id":"(\d+)")?/;

/** The open GraphQL sockets of an instance. */
export interface GraphqlSockets {
  /**
   * Closes every socket with 1012 (service restart): the clients connect again and read afresh
   * what they show, since events meant for them may have been lost.
   */
  restartAll(): void;
  /** The upgrade requests of the open sockets. */
  requests(): FastifyRequest[];
  /** Closes with 4403 (Forbidden) the sockets whose upgrade request `which` picks (their session was revoked). */
  refuseWhere(which: (request: FastifyRequest) => boolean): void;
}

/** Puts the guard between the WebSocket of `path` and mercurius; call it before @fastify/websocket is registered. */
export function guardGraphqlSocket(app: FastifyInstance, path: string, schema: () => GraphQLSchema): GraphqlSockets {
  /** Each open socket and the request it was opened by. */
  const open = new Map<WebSocket, FastifyRequest>();
  app.addHook('onRoute', (route) => {
    const handler = route.wsHandler;
    if (route.url !== path || !handler) return;
    route.wsHandler = function (socket, request) {
      if (socket.protocol !== GRAPHQL_TRANSPORT_WS_PROTOCOL) return socket.close(CloseCode.SubprotocolNotAcceptable, 'Subprotocol not acceptable');
      open.set(socket, request);
      socket.once('close', () => open.delete(socket));
      return handler.call(this, new GuardedSocket(socket, request, schema()) as unknown as WebSocket, request);
    };
  });
  return {
    restartAll() {
      for (const socket of open.keys()) socket.close(1012, 'Service restart');
    },
    requests: () => [...open.values()],
    refuseWhere(which) {
      for (const [socket, request] of open) if (which(request)) socket.close(CloseCode.Forbidden, 'Forbidden');
    },
  };
}

/** What mercurius uses of a socket, with every client frame checked before it is passed on. */
class GuardedSocket extends EventEmitter {
  readonly #socket: WebSocket;
  readonly #request: FastifyRequest;
  readonly #schema: GraphQLSchema;
  #initReceived = false;
  #acknowledged = false;
  #closing = false;
  /**
   * The client's id of each subscription running on this socket, by the id mercurius knows it by:
   * a client's complete frees its id at once, and what mercurius still sends for the old
   * subscription (its own complete) neither reaches the client nor ends a new one of that id.
   */
  readonly #running = new Map<string, string>();
  #lastId = 0;

  constructor(socket: WebSocket, request: FastifyRequest, schema: GraphQLSchema) {
    super();
    this.#socket = socket;
    this.#request = request;
    this.#schema = schema;
    socket.on('message', (data, isBinary) => this.#receive(data, isBinary));
    socket.on('close', (code, reason) => this.emit('close', code, reason));
    socket.on('error', (error) => this.emit('error', error));
  }

  get protocol() {
    return this.#socket.protocol;
  }

  get readyState() {
    return this.#socket.readyState;
  }

  close(code?: number, reason?: string) {
    this.#socket.close(code, reason);
  }

  /** mercurius' messages to the client. */
  send(data: string, callback?: (error?: Error) => void) {
    const [prefix = '', type, id] = SENT.exec(data) ?? [];
    if (type === 'connection_error') {
      // mercurius refuses a connection_init without a valid token with a message the protocol does not have.
      this.#refuse(CloseCode.Forbidden, 'Forbidden');
      callback?.();
      return;
    }
    if (type === MessageType.ConnectionAck) this.#acknowledged = true;
    if (id === undefined) return this.#socket.send(data, callback);
    const clientId = this.#running.get(id);
    if (clientId === undefined) return callback?.(); // the client completed it already
    if (type === MessageType.Complete || type === MessageType.Error) this.#running.delete(id);
    this.#socket.send(`{"type":"${type}","id":${JSON.stringify(clientId)}${data.slice(prefix.length)}`, callback);
  }

  #receive(data: RawData, isBinary: boolean) {
    if (this.#closing) return;
    const message = isBinary ? undefined : messageOf(String(data));
    if (!message || !CLIENT_MESSAGES.has(message.type)) return this.#refuse(CloseCode.BadRequest, 'Invalid message received');
    if (message.type === MessageType.ConnectionInit) {
      if (this.#initReceived) return this.#refuse(CloseCode.TooManyInitialisationRequests, 'Too many initialisation requests');
      this.#initReceived = true;
    }
    if (message.type === MessageType.Subscribe) {
      if (!this.#acknowledged) return this.#refuse(CloseCode.Unauthorized, 'Unauthorized');
      if (this.#idOf(message.id)) return this.#refuse(CloseCode.SubscriberAlreadyExists, 'Subscriber already exists');
      const problems = this.#problemsOf(message.payload);
      if (problems.length) {
        const { errors } = formatGraphqlErrors(problems, this.#request.log, this.#request.id);
        this.#socket.send(JSON.stringify({ id: message.id, type: MessageType.Error, payload: errors }));
        return;
      }
      const id = String(++this.#lastId);
      this.#running.set(id, message.id);
      return this.#pass({ ...message, id });
    }
    if (message.type === MessageType.Complete) {
      const id = this.#idOf(message.id);
      if (!id) return; // nothing of that id runs (any more)
      this.#running.delete(id);
      return this.#pass({ ...message, id });
    }
    this.#pass(message);
  }

  /** mercurius' id of the client's running subscription `clientId`. */
  #idOf(clientId: string) {
    for (const [id, client] of this.#running) if (client === clientId) return id;
    return undefined;
  }

  #pass(message: Message) {
    this.emit('message', JSON.stringify(message), false);
  }

  /** What POST /graphql would refuse in the operation: its document, its choice of operation, its variables. */
  #problemsOf(payload: SubscribePayload): readonly GraphQLError[] {
    try {
      const document = parse(payload.query, graphqlParseOptions);
      const invalid = validate(this.#schema, document, [...specifiedRules, ...graphqlValidationRules]);
      if (invalid.length) return invalid;
      const operation = selectedOperation(document, payload.operationName);
      if (operation.operation !== 'subscription') return [new GraphQLError('Only subscriptions run on the WebSocket; send queries and mutations to POST /graphql.')];
      return getVariableValues(this.#schema, operation.variableDefinitions ?? [], payload.variables ?? {}).errors ?? [];
    } catch (error) {
      // A syntax error or no such operation; anything else is the server's, logged by the formatter.
      return [error instanceof GraphQLError ? error : new GraphQLError('subscribe failed', { originalError: error as Error })];
    }
  }

  #refuse(code: number, reason: string) {
    this.#closing = true;
    this.#socket.close(code, reason);
  }
}

/** The message a text frame holds, or undefined when it is not one of the protocol. */
function messageOf(text: string): Message | undefined {
  try {
    return parseMessage(text, refusePrototypeKeys);
  } catch {
    return undefined;
  }
}
