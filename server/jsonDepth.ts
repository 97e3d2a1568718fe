// The nesting bound of JSON (MAX_JSON_DEPTH, src/schemas/bounds.ts), measured without recursion:
// V8's JSON.parse reads a million nested arrays, but ajv, structuredClone, JSON.stringify and our
// own walkers recurse and overflow the stack thousands of levels down. Every door checks a value
// here before any of them reads it (docs/decisions.md "JSON nesting").
import { MAX_JSON_DEPTH } from '../src/schemas/bounds.ts';
import { ApiError } from './errors.ts';

export const JSON_TOO_DEEP = 'JSON_TOO_DEEP';

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * Where `value` nests arrays and objects more than `limit` levels deep: the key (or index) of its
 * member that does, '' when the value itself is already too deep, undefined when it stays within.
 * An explicit stack instead of recursion, so any depth is measured; it stops at the first
 * container past the limit.
 */
export function memberNestedTooDeep(value: unknown, limit: number = MAX_JSON_DEPTH): string | undefined {
  if (!isContainer(value)) return undefined;
  if (limit < 1) return '';
  const stack: { node: object; depth: number; member: string }[] = [];
  for (const [member, child] of Object.entries(value)) {
    if (isContainer(child)) stack.push({ node: child, depth: 2, member });
  }
  while (stack.length) {
    const { node, depth, member } = stack.pop()!;
    if (depth > limit) return member;
    for (const child of Object.values(node)) {
      if (isContainer(child)) stack.push({ node: child, depth: depth + 1, member });
    }
  }
  return undefined;
}

/** The refusal's words: `what` names the value (`attributes`, `the message`). */
export const tooDeepMessage = (what: string) => `${what} is nested more than ${MAX_JSON_DEPTH} levels deep`;

/** 400 JSON_TOO_DEEP for a value whose member `field` nests too deep. */
export const jsonTooDeep = (field: string) => new ApiError(400, JSON_TOO_DEEP, tooDeepMessage(field), field, { limit: MAX_JSON_DEPTH });
