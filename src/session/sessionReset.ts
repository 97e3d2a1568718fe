// Ends the session on this device: tokens, stored user data (the dashboard's state, the selected
// region's cookie), cached server data and the live connection (SPEC §4: logout clears stored data). `expireSession` also sends the user to /login (keeping the way back in
// `redirect`), once, however many requests fail.
import { liveConnection } from '../providers/liveConnection.ts';
import { queryClient } from '../providers/queryClient.ts';
import { loginPathFor } from '../routing/loginRedirect.ts';
import { navigateTo } from './appNavigation.ts';
import { DASHBOARD_STATE_PREFIX, REGION_COOKIE, SESSION_KEYS } from './storedKeys.ts';
import { clearTokens } from './tokenStorage.ts';


let redirectingToLogin = false;

export function clearSession(): void {
  liveConnection.close();
  clearTokens();
  window.localStorage.removeItem(SESSION_KEYS.languages);
  for (const key of Object.keys(window.localStorage)) if (key.startsWith(DASHBOARD_STATE_PREFIX)) window.localStorage.removeItem(key);
  document.cookie = `${REGION_COOKIE}=; path=/; max-age=0; SameSite=Lax`;
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
