// The device of an HTTP device API request: its access token in the path (ThingsBoard's), 401 when
// no device has it (reported without the token itself).
import { NO_NUL } from '../../src/schemas/bounds.ts';
import { ApiError } from '../errors.ts';
import type { DeviceIdentity, DeviceIngest } from './deviceIngest.ts';
import { tokenFingerprint, type IngestProblems } from './ingestProblems.ts';

export const tokenParam = { type: 'string', minLength: 1, maxLength: 255, pattern: NO_NUL } as const;

const invalidToken = () => new ApiError(401, 'DEVICE_TOKEN_INVALID', 'Invalid device access token');

/** Finds the device of a token, or throws the 401. */
export function httpDevice(ingest: DeviceIngest, problems: IngestProblems) {
  return async (token: string): Promise<DeviceIdentity> => {
    const found = await ingest.authenticate(token);
    if (!found) {
      problems.report('bad_token', 'HTTP client', `unknown access token (${tokenFingerprint(token)})`);
      throw invalidToken();
    }
    return found;
  };
}
