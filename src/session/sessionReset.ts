// Ends the session on this device: tokens, stored user data, cached server data and the live
// connection. `expireSession` also sends the user to /login (keeping the way back in
// `redirect`), once, however many requests fail.
import { liveConnection } from '../providers/liveConnection.ts';
import { queryClient } from '../providers/queryClient.ts';
import { loginPathFor } from '../routing/loginRedirect.ts';
import { navigateTo } from './appNavigation.ts';
import { clearTokens } from './tokenStorage.ts';

/** localStorage keys holding data of the signed-in user (not device preferences). */
const USER_DATA_KEYS = ['languages'];
/** Prefix of the user's dashboard state (SPEC §4: logout clears stored data). */
export const DASHBOARD_STATE_PREFIX = 'terrasight.dashboard.';

let redirectingToLogin = false;

export function clearSession(): void {
  liveConnection.close();
  clearTokens();
  for (const key of USER_DATA_KEYS) window.localStorage.removeItem(key);
  for (const key of Object.keys(window.localStorage)) if (key.startsWith(DASHBOARD_STATE_PREFIX)) window.localStorage.removeItem(key);
  queryClient.clear();
}

export function expireSession(): void {
  if (redirectingToLogin) return;
  redirectingToLogin = true;
  const onLoginPage = window.location.pathname === '/login';
  clearSession();
  if (!onLoginPage) navigateTo(loginPathFor(window.location));
}

/** Called after a successful sign-in: a later expiry may redirect again. */
export function sessionStarted(): void {
  redirectingToLogin = false;
}
