// Where the map starts: the default centre (SPEC §3) and the rotation and tilt the user left it
// at, kept in local storage (SPEC §3) so that a reload shows the map as it was.
import { DEVICE_KEYS } from '../../../session/storedKeys.ts';

export const DEFAULT_ZOOM = 13;

const BEARING_KEY = DEVICE_KEYS.mapBearing;
const PITCH_KEY = DEVICE_KEYS.mapPitch;

const stored = (key: string, min: number, max: number): number => {
  const value = Number(localStorage.getItem(key));
  return Number.isFinite(value) && value >= min && value <= max ? value : 0;
};

/** The rotation (bearing, degrees) and tilt (pitch, degrees) the map was left at. */
export function storedOrientation(): { bearing: number; pitch: number } {
  return { bearing: stored(BEARING_KEY, -180, 180), pitch: stored(PITCH_KEY, 0, 85) };
}

export function storeOrientation(bearing: number, pitch: number): void {
  localStorage.setItem(BEARING_KEY, String(Math.round(bearing * 10) / 10));
  localStorage.setItem(PITCH_KEY, String(Math.round(pitch * 10) / 10));
}
