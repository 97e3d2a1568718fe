// A log's message in the reader's language: an engine's log (a watcher's transition, a scheduler's
// run, a lighting override, a failed device command, a maintenance window's change, start or end) is told again from its message_data (entity and key names, the value and the threshold, in
// the interface language); any other log shows its stored text.
import { useTranslation } from 'react-i18next';
import { useAttributeName } from '../i18n/attributeNames.ts';
import { pickLocalized, type LocalizedValue } from '../shared/i18n/pickLocalized.ts';

interface EngineLogData {
  transition?: string;
  result?: string;
  entity?: LocalizedValue;
  watcher?: string;
  scheduler?: string;
  key?: string;
  value?: unknown;
  operator?: string;
  kind?: string;
  threshold?: unknown;
  threshold_to?: unknown;
  interval?: number;
  attribute?: string;
  entities?: number;
  failures?: number;
  reason?: string;
  event?: string;
  lamps?: number;
  level?: number;
  minutes?: number;
  method?: string;
  /** A maintenance window's log: its name, what happened to it, its mode. */
  maintenance_window?: string;
  action?: string;
  mode?: string;
  /** false: logged under notify-off maintenance and sent to no one. */
  notified?: boolean;
}

const WATCHER_TRANSITIONS = ['alert', 'recover', 'no_data', 'data_back'];
const SCHEDULER_RESULTS = ['ok', 'nok', 'skipped', 'failed'];
const FAILURE_REASONS = ['timeout', 'unavailable', 'unexpected'];
const LIGHTING_EVENTS = ['override', 'override_end'];
const MAINTENANCE_ACTIONS = ['scheduled', 'changed', 'removed', 'started', 'ended'];

export function LogMessage({ message, source, data }: { message: string; source?: unknown; data?: unknown }) {
  const { t, i18n } = useTranslation();
  const attributeName = useAttributeName();
  const parts = (data ?? {}) as EngineLogData;
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 3 });
  const shown = (value: unknown) => (typeof value === 'number' ? number.format(value) : value === null || value === undefined ? '—' : typeof value === 'string' ? `"${value}"` : JSON.stringify(value));
  if (source === 'watcher' && parts.transition && WATCHER_TRANSITIONS.includes(parts.transition)) {
    const threshold = parts.kind === 'now' ? t('logMessages.now') : parts.operator === 'between'
      ? t('logMessages.between', { from: shown(parts.threshold), to: shown(parts.threshold_to) }) : shown(parts.threshold);
    return <>{t(`logMessages.watcher.${parts.transition}`, {
      entity: pickLocalized(parts.entity, i18n.language), key: attributeName(parts.key ?? ''), value: shown(parts.value),
      // symbols as they are; between in words
      operator: parts.operator === 'between' ? t('enumValues.operator.between') : parts.operator, threshold, watcher: parts.watcher, interval: parts.interval,
    })}{parts.notified === false ? ` ${t('logMessages.notSent')}` : ''}</>;
  }
  if (source === 'scheduler' && parts.result && SCHEDULER_RESULTS.includes(parts.result)) {
    const reason = t(`logMessages.failureReason.${FAILURE_REASONS.includes(parts.reason ?? '') ? parts.reason : 'unexpected'}`);
    return <>{t(`logMessages.scheduler.${parts.result}`, { scheduler: parts.scheduler, attribute: parts.attribute, count: parts.entities ?? 0, failures: parts.failures, reason })}</>;
  }
  if (source === 'profile' && parts.event && LIGHTING_EVENTS.includes(parts.event)) {
    return <>{t(`logMessages.lighting.${parts.event}`, { count: parts.lamps ?? 0, level: parts.level, minutes: parts.minutes })}</>;
  }
  if (source === 'entity' && parts.event === 'command_failed') {
    return <>{t('logMessages.command.failed', { entity: pickLocalized(parts.entity, i18n.language), method: parts.method, reason: parts.reason })}</>;
  }
  if (parts.maintenance_window !== undefined && parts.action && MAINTENANCE_ACTIONS.includes(parts.action)) {
    return <>{t(`logMessages.maintenance.${parts.action}`, { name: parts.maintenance_window, mode: t(`enumValues.mode.${parts.mode}`) })}</>;
  }
  return <>{message}</>;
}
