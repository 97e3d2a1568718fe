// Ends the session on this device: tokens, stored user data, cached server data and the live
// connection. `expireSession` also sends the user to /login, once, however many requests fail.
import { liveConnection } from '../providers/liveConnection.ts';
import { queryClient } from '../providers/queryClient.ts';
import { navigateTo } from './appNavigation.ts';
import { clearTokens } from './tokenStorage.ts';

/** localStorage keys holding data of the signed-in user (not device preferences). */
const USER_DATA_KEYS = ['languages'];

let redirectingToLogin = false;

export function clearSession(): void {
  liveConnection.close();
  clearTokens();
  for (const key of USER_DATA_KEYS) window.localStorage.removeItem(key);
  queryClient.clear();
}

export function expireSession(): void {
  if (redirectingToLogin) return;
  redirectingToLogin = true;
  navigateTo('/login');
  clearSession();
}

/** Called after a successful sign-in: a later expiry may redirect again. */
export function sessionStarted(): void {
  redirectingToLogin = false;
}
