// Google Map Tiles API, 2D roadmap, as a raster base map. The map kit calls Google itself: a
// session (POST /v1/createSession with the browser key) names the map type, language and region,
// then every tile request carries it. Google's terms ask for its attribution on the map.
import type { StyleSpecification } from 'maplibre-gl';

/** 2D tiles go down to street level. */
const MAX_ZOOM = 22;

interface Session { session?: unknown; tileWidth?: unknown }

/** Creates a session on `serviceUrl` (https://tile.googleapis.com) and answers the style drawing its tiles. */
export async function googleStyle(serviceUrl: string, key: string, language: string): Promise<StyleSpecification> {
  const keyParameter = `key=${encodeURIComponent(key)}`;
  const response = await fetch(`${serviceUrl}/v1/createSession?${keyParameter}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mapType: 'roadmap', language, region: regionOf(language) }),
  });
  if (!response.ok) throw new Error(`Google Map Tiles refused the session (HTTP ${response.status}).`);
  const { session, tileWidth } = await response.json() as Session;
  if (typeof session !== 'string' || !session) throw new Error('Google Map Tiles answered no session.');
  return {
    version: 8,
    sources: {
      google: {
        type: 'raster',
        tiles: [`${serviceUrl}/v1/2dtiles/{z}/{x}/{y}?session=${encodeURIComponent(session)}&${keyParameter}`],
        tileSize: typeof tileWidth === 'number' && tileWidth > 0 ? tileWidth : 256,
        maxzoom: MAX_ZOOM,
        attribution: 'Map data © Google',
      },
    },
    layers: [{ id: 'google-roadmap', type: 'raster', source: 'google' }],
  };
}

/** The region Google draws borders and names for: the language's likeliest one (sk → SK, en → US). */
function regionOf(language: string): string {
  try {
    return new Intl.Locale(language).maximize().region ?? 'US';
  } catch {
    return 'US';
  }
}
