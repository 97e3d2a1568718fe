// The feature modules (SPEC §6) and where each one starts.
import type { Module } from '../schemas/modules.ts';

export type AppModule = Module;

export const moduleEntryPaths: Record<AppModule, string> = {
  'factory-dashboard': '/dashboard',
  'factory-studio': '/studio/regions',
  'performance-dashboard': '/performance-dashboard',
  'public-api-dashboard': '/public-api-dashboard',
  logs: '/logs',
};
