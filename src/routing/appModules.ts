// The feature modules (SPEC §6) and where each one starts.
export const APP_MODULES = ['factory-dashboard', 'factory-studio', 'performance-dashboard', 'public-api-dashboard', 'logs'] as const;
export type AppModule = (typeof APP_MODULES)[number];

export const moduleEntryPaths: Record<AppModule, string> = {
  'factory-dashboard': '/dashboard',
  'factory-studio': '/studio/regions',
  'performance-dashboard': '/performance-dashboard',
  'public-api-dashboard': '/public-api-dashboard',
  logs: '/logs',
};

/** The modules of the token, in menu order. */
export function availableModules(granted: readonly string[]): AppModule[] {
  return APP_MODULES.filter((module) => granted.includes(module));
}
