// Reads the claims of the access token on the client. The server verifies the signature;
// the web app only needs the claims to decide what to show.
import { getAccessToken } from './tokenStorage.ts';

export interface TokenClaims {
  sub?: string;
  tenant?: string;
  lang?: string;
  languages: string[];
  modules: string[];
  module_permissions: string[];
  maintenance_modes: string[];
  exp?: number;
}

const emptyClaims: TokenClaims = { languages: [], modules: [], module_permissions: [], maintenance_modes: [] };

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(segment.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function decodeTokenClaims(token: string | null | undefined): TokenClaims {
  if (!token) return emptyClaims;
  const payload = token.split('.')[1];
  if (!payload) return emptyClaims;
  try {
    const raw = JSON.parse(decodeBase64Url(payload)) as Record<string, unknown>;
    return {
      sub: typeof raw.sub === 'string' ? raw.sub : undefined,
      tenant: typeof raw.tenant === 'string' ? raw.tenant : undefined,
      lang: typeof raw.lang === 'string' ? raw.lang : undefined,
      languages: stringList(raw.languages),
      modules: stringList(raw.modules),
      module_permissions: stringList(raw.module_permissions),
      maintenance_modes: stringList(raw.maintenance_modes),
      exp: typeof raw.exp === 'number' ? raw.exp : undefined,
    };
  } catch {
    return emptyClaims;
  }
}

export function currentTokenClaims(): TokenClaims {
  return decodeTokenClaims(getAccessToken());
}
