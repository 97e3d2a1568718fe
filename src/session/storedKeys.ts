// Everything the web app keeps in the browser, in one place (SPEC §9: sidebar status, language,
// languages, size, selected region, tokens under product-specific keys; SPEC §3: the map's
// rotation and tilt; SPEC §4: the dashboard's state, cleared with the session). Nothing else is
// stored; the web app offers no size setting, so no size is kept.

/** localStorage keys of this device's preferences: they outlive a session. */
export const DEVICE_KEYS = {
  sidebarStatus: 'sidebar_status',
  language: 'language',
  mapBearing: 'terrasight.map.bearing',
  mapPitch: 'terrasight.map.pitch',
} as const;

/** localStorage keys of the signed-in user: removed at logout or reset. */
export const SESSION_KEYS = {
  accessToken: 'terrasight.access_token',
  refreshToken: 'terrasight.refresh_token',
  /** The languages the token allows, when kept (SPEC §9). */
  languages: 'languages',
} as const;

/** Prefix of the user's dashboard state (one key per tenant and user), removed at logout. */
export const DASHBOARD_STATE_PREFIX = 'terrasight.dashboard.';

/** The cookie of the selected region (SPEC §4). */
export const REGION_COOKIE = 'terrasight_region';

/** Whether `key` is one the web app keeps in localStorage. */
export const isStoredKey = (key: string) =>
  (Object.values(DEVICE_KEYS) as string[]).includes(key) || (Object.values(SESSION_KEYS) as string[]).includes(key) || key.startsWith(DASHBOARD_STATE_PREFIX);
