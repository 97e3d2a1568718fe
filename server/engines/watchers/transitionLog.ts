// The log row of a watch's transition: what happened to what ("Street lamp 1-3: power 82 > 50
// (Lamp power high)"), typed by the watcher's severity (a return to normal is informational), with
// `message_data` holding the parts, so the web app can say it in the reader's language. The event
// key (watcher, entity, transition, its time) makes the row unique: written once, whoever writes it.
import { pickLocalized } from '../../../src/shared/i18n/pickLocalized.ts';
import type { EngineLog } from '../../db/logQueries.ts';
import type { WatchedEntity, WatcherRow } from '../../db/watcherQueries.ts';
import type { Transition } from './watchState.ts';

/** A value as the message shows it: numbers as they are, texts quoted, nothing as "no value". */
function shown(value: unknown): string {
  if (value === null || value === undefined) return 'no value';
  if (typeof value === 'string') return `"${value}"`;
  if (typeof value === 'number') return String(Math.round(value * 1000) / 1000);
  return JSON.stringify(value);
}

function messageOf(watcher: WatcherRow, entityName: string, transition: Transition, value: unknown): string {
  const { key } = watcher.query;
  const { operator, kind, value: threshold, value_to: upper } = watcher.condition;
  const limit = kind === 'now' ? 'now' : operator === 'between' ? `${shown(threshold)} and ${shown(upper)}` : shown(threshold);
  switch (transition) {
    case 'alert': return `${entityName}: ${key} ${shown(value)} ${operator} ${limit} (${watcher.name})`;
    case 'recover': return `${entityName}: ${key} ${shown(value)} back to normal (${watcher.name})`;
    case 'no_data': return `${entityName}: no ${key} data for ${watcher.interval} s (${watcher.name})`;
    case 'data_back': return `${entityName}: ${key} data again (${watcher.name})`;
    default: return `${entityName}: ${watcher.name}`;
  }
}

/** `muted`: logged under notify-off maintenance, sent to no one (the log says so). */
export function transitionLog(watcher: WatcherRow, entity: WatchedEntity, transition: Transition, value: unknown, at: string, muted = false): EngineLog {
  const entityName = pickLocalized(entity.name, 'en') || `#${entity.id}`;
  const severity = watcher.definition?.severity ?? 'warning';
  return {
    tenantId: watcher.tenant_id,
    entityId: entity.id,
    at,
    type: transition === 'alert' || transition === 'no_data' ? severity : 'informational',
    source: 'watcher',
    message: messageOf(watcher, entityName, transition, value),
    data: {
      source_id: watcher.id, watcher: watcher.name, entity: entity.name ?? null, transition, key: watcher.query.key, value: value ?? null,
      operator: watcher.condition.operator, kind: watcher.condition.kind, threshold: watcher.condition.value ?? null, interval: watcher.interval,
      ...(watcher.condition.value_to !== undefined ? { threshold_to: watcher.condition.value_to } : {}),
      ...(watcher.definition?.email_body ? { email_body: watcher.definition.email_body } : {}),
      ...(muted ? { notified: false, maintenance: 'notify-off' } : {}),
    },
    eventKey: `watcher:${watcher.id}:${entity.id}:${transition}:${at}`,
  };
}
