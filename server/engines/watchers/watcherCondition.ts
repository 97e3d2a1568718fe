// Whether a watcher's condition holds for a value (SPEC §3: operators >, >=, <, <=, between, ==,
// != against a threshold of kind boolean, null, number, string, date or now). Pure. A value of
// another type than the threshold's never holds (a text is not "> 50"); `between` includes both ends.
import type { Watcher } from '../../../src/schemas/watcher.ts';
import type { TelemetryValue } from '../../telemetry/telemetryPoint.ts';

export type WatcherCondition = Watcher['condition'];

/** The value and the threshold brought to one comparable type, or undefined when they cannot be. */
function comparable(kind: WatcherCondition['kind'], value: TelemetryValue | null, threshold: unknown, now: number): [number | string | boolean | null, number | string | boolean | null] | undefined {
  switch (kind) {
    case 'number': return typeof value === 'number' && typeof threshold === 'number' ? [value, threshold] : undefined;
    case 'string': return typeof value === 'string' && typeof threshold === 'string' ? [value, threshold] : undefined;
    case 'boolean': return typeof value === 'boolean' && typeof threshold === 'boolean' ? [value, threshold] : undefined;
    // `== null` / `!= null`: whether there is a value at all
    case 'null': return [value === null ? null : true, null];
    case 'date':
    case 'now': {
      const at = typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value : Number.NaN;
      const limit = kind === 'now' ? now : typeof threshold === 'string' ? Date.parse(threshold) : Number.NaN;
      return Number.isFinite(at) && Number.isFinite(limit) ? [at, limit] : undefined;
    }
    default: return undefined;
  }
}

export function conditionHolds(condition: WatcherCondition, value: TelemetryValue | null, now = Date.now()): boolean {
  const pair = comparable(condition.kind, value, condition.value, now);
  if (!pair) return false;
  const [left, right] = pair;
  switch (condition.operator) {
    case '==': return left === right;
    case '!=': return left !== right;
    case '>': return left !== null && right !== null && left > right;
    case '>=': return left !== null && right !== null && left >= right;
    case '<': return left !== null && right !== null && left < right;
    case '<=': return left !== null && right !== null && left <= right;
    case 'between': {
      const upper = comparable(condition.kind, value, condition.value_to, now)?.[1];
      return left !== null && right !== null && upper !== null && upper !== undefined && left >= right && left <= upper;
    }
    default: return false;
  }
}
