// The tenant's time zone, the one its lighting profiles' times and dates are read in: the tenant
// attribute `timezone` when the browser knows it as an IANA zone, else UTC — the rule the server's
// engines follow (timeZoneOrUtc, server/resources/rules/schedulerRules.ts).
import { useShellData, type Tenant } from './shellData.ts';

export function tenantTimeZone(tenant: Pick<Tenant, 'attributes'>): string {
  const name = tenant.attributes.timezone;
  if (typeof name !== 'string' || !name) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return name;
  } catch {
    return 'UTC';
  }
}

export const useTenantTimeZone = (): string => tenantTimeZone(useShellData().tenant);
