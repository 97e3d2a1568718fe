// refine AuthProvider: sign-in with e-mail and password, sign-out, session checks (SPEC §2, §8).
import type { AuthProvider } from '@refinedev/core';
import { applySessionLanguage, i18n } from '../i18n/i18n.ts';
import { apiPaths } from '../resources/apiMap.ts';
import { currentTokenClaims } from '../session/tokenClaims.ts';
import { clearSession, expireSession, sessionStarted } from '../session/sessionReset.ts';
import { getAccessToken, getRefreshToken, storeTokens } from '../session/tokenStorage.ts';
import { httpRequest } from './httpClient.ts';
import { ApiHttpError } from './httpError.ts';

export interface LoginValues {
  email: string;
  password: string;
}

interface LoginAnswer {
  access_token?: string;
  refresh_token?: string;
}

export interface CurrentUser {
  id: string;
  username: string;
  email: string;
  lang?: string;
  languages?: string[];
  modules?: string[];
  module_permissions?: string[];
  maintenance_modes?: string[];
}

/** Where to go after signing in: the `redirect` query value when it is a path of this app. */
export function redirectTargetAfterLogin(search: string): string {
  const target = new URLSearchParams(search).get('redirect');
  if (target && target.startsWith('/') && !target.startsWith('//')) return target;
  return '/';
}

function errorOf(error: unknown, fallbackName: string): { name: string; message: string } {
  if (error instanceof Error) return { name: fallbackName, message: error.message };
  return { name: fallbackName, message: String(error) };
}

export const authProvider: AuthProvider = {
  async login(params: LoginValues) {
    try {
      const answer = await httpRequest<LoginAnswer | undefined>({
        method: 'post',
        path: apiPaths.login,
        body: { email: params.email.trim(), password: params.password },
        anonymous: true,
      });
      if (!answer?.access_token) throw new Error(i18n.t('errors.missingToken'));
      storeTokens(answer.access_token, answer.refresh_token);
      sessionStarted();
      applySessionLanguage();
      return { success: true, redirectTo: redirectTargetAfterLogin(window.location.search) };
    } catch (error) {
      return { success: false, error: errorOf(error, 'Login error') };
    }
  },

  async logout() {
    const refreshToken = getRefreshToken();
    if (!refreshToken) {
      clearSession();
      return { success: false, redirectTo: '/login', error: { name: 'Logout error', message: i18n.t('errors.logoutWithoutToken') } };
    }
    try {
      await httpRequest({ method: 'post', path: apiPaths.logout, body: { refresh_token: refreshToken }, anonymous: true });
    } catch {
      // The session ends on this device even when the server cannot be told.
    }
    clearSession();
    return { success: true, redirectTo: '/login' };
  },

  async check() {
    if (getAccessToken()) return { authenticated: true };
    return { authenticated: false, redirectTo: '/login', logout: true };
  },

  async onError(error: unknown) {
    if (error instanceof ApiHttpError && error.statusCode === 401 && (error.code === 'JWT100' || error.code === 'JWT102')) {
      expireSession();
    }
    return {};
  },

  async getIdentity() {
    if (!getAccessToken()) return null;
    return httpRequest<CurrentUser>({ path: apiPaths.currentUser });
  },

  async getPermissions() {
    const claims = currentTokenClaims();
    return { modules: claims.modules, permissions: claims.module_permissions, maintenanceModes: claims.maintenance_modes };
  },
};

