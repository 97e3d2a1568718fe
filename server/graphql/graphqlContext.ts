// What every resolver gets: the caller (from the request's or the websocket's token).
import { invalidToken } from '../errors.ts';
import type { Caller } from '../auth/caller.ts';

export interface GraphqlContext { caller?: Caller }

export const callerOf = (context: GraphqlContext): Caller => {
  if (!context.caller) throw invalidToken();
  return context.caller;
};

/** GraphQL leaves absent arguments out and passes explicit nulls; both mean "not given". */
export const given = (args: Record<string, unknown>) => Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null && value !== undefined));
