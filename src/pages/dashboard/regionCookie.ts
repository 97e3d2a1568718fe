// The selected region, kept in a cookie (SPEC §4, §9: stored key "selected region").
import { REGION_COOKIE as COOKIE } from '../../session/storedKeys.ts';

const ONE_YEAR_S = 365 * 86_400;

export function storedRegion(): number | undefined {
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${COOKIE}=`));
  const id = Number(match?.slice(COOKIE.length + 1));
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

export function storeRegion(id: number): void {
  document.cookie = `${COOKIE}=${id}; path=/; max-age=${ONE_YEAR_S}; SameSite=Lax`;
}
