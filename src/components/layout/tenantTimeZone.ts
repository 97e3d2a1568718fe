// The tenant's time zone, the one its lighting profiles' times and dates are read in: the tenant
// attribute `timezone` when the browser knows it as an IANA zone, else UTC — the rule the server's
// engines follow (the same timeZoneOrUtc).
import { timeZoneOrUtc } from '../../shared/lighting/localTime.ts';
import { useShellData, type Tenant } from './shellData.ts';

export const tenantTimeZone = (tenant: Pick<Tenant, 'attributes'>): string => timeZoneOrUtc(tenant.attributes.timezone);

export const useTenantTimeZone = (): string => tenantTimeZone(useShellData().tenant);
