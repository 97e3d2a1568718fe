// A bearer token is an API user's (`tsa_…`) or a signed-in user's access token (a JWT): each goes
// to its own service and is never tried as the other.
import { isApiToken } from '../auth/apiTokens.ts';
import type { Caller } from '../auth/caller.ts';

export interface Authenticator { authenticate(token: string): Promise<Caller> }

export const bearerAuthentication = (users: Authenticator, apiUsers: Authenticator): Authenticator => ({
  authenticate: (token) => (isApiToken(token) ? apiUsers : users).authenticate(token),
});
