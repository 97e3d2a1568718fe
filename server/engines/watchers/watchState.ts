// One watch (a watcher on one entity) as a state machine, kept in the database (watcher_states) so a
// restart resumes it: normal → pending (the condition holds, waiting out the watcher's `for`
// duration) → alerting → normal again; no_data when the entity sent nothing for the key over the
// watcher's interval. Pure: given the state and what was observed, the next state and the
// transition to log, if any. A pending watch whose time is up fires on the next pass, without
// waiting for a new value.

export const WATCH_STATES = ['normal', 'pending', 'alerting', 'no_data'] as const;
export type WatchStateName = (typeof WATCH_STATES)[number];
export type Transition = 'alert' | 'recover' | 'no_data' | 'data_back';

export interface WatchState { state: WatchStateName; since: number }

/** What an evaluation found: the condition holding or not on a value, or no value in the interval. */
export type Observation = { holds: boolean } | 'no_data';

export interface Step { next: WatchState; transition?: Transition }

/** The states in which the watch counts as in alert (the watcher's flag, the bell). */
export const isAlerting = (state: WatchStateName) => state === 'alerting' || state === 'no_data';

export function step(current: WatchState, observed: Observation, now: number, forMs: number): Step {
  const stay = { next: current };
  if (observed === 'no_data') {
    return current.state === 'no_data' ? stay : { next: { state: 'no_data', since: now }, transition: 'no_data' };
  }
  if (observed.holds) {
    switch (current.state) {
      case 'alerting': return stay;
      case 'pending':
        return now - current.since >= forMs ? { next: { state: 'alerting', since: now }, transition: 'alert' } : stay;
      default: // normal, or data again after none
        return forMs > 0
          ? { next: { state: 'pending', since: now }, ...(current.state === 'no_data' ? { transition: 'data_back' as const } : {}) }
          : { next: { state: 'alerting', since: now }, transition: 'alert' };
    }
  }
  switch (current.state) {
    case 'alerting': return { next: { state: 'normal', since: now }, transition: 'recover' };
    case 'no_data': return { next: { state: 'normal', since: now }, transition: 'data_back' };
    case 'pending': return { next: { state: 'normal', since: now } };
    default: return stay;
  }
}
