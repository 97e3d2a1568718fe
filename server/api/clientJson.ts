// JSON a client sends outside a request body (GraphQL's GET parameters, WebSocket frames), held
// to the rule Fastify's body parser keeps: a `__proto__` key, or a `constructor` key holding a
// `prototype`, is refused, so no parsed value can reach an object's prototype when it is merged.

/** A JSON.parse reviver that throws on prototype keys. */
export function refusePrototypeKeys(key: string, value: unknown) {
  if (key === '__proto__' || (key === 'constructor' && typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype'))) {
    throw new SyntaxError('Object contains a forbidden prototype property');
  }
  return value;
}

/** The value of a client's JSON text; throws a SyntaxError on bad JSON or a prototype key. */
export const parseClientJson = (text: string): unknown => JSON.parse(text, refusePrototypeKeys);
