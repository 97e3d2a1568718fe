// How a maintenance window in force is said: its mode, its name and until when (in the tenant's
// time zone, the one its schedule is kept in).
import type { TFunction } from 'i18next';
import type { ActiveWindow } from './useActiveMaintenance.ts';

export function untilText(window: ActiveWindow, language: string, timeZone: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(window.current_end));
}

export function windowText(t: TFunction, window: ActiveWindow, language: string, timeZone: string): string {
  return t('maintenance.inForce', { mode: t(`enumValues.mode.${window.mode}`), name: window.name, until: untilText(window, language, timeZone) });
}
