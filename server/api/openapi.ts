// Route schema helpers: shared JSON Schemas without their `$id` (so one schema can serve
// several routes), and the documented error responses.
export function bodySchema<T extends { $id?: string }>(schema: T): Omit<T, '$id'> {
  const { $id: _id, ...rest } = schema;
  return rest;
}

/** The documented error body (docs/api.md "Errors"). */
export const errorBody = {
  type: 'object',
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { code: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' }, params: { type: 'object', additionalProperties: true } },
      },
    },
  },
} as const;

export const errorResponses = { '4xx': errorBody } as const;
