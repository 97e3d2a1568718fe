// The boards' GraphQL documents besides the engine's (docs/api.md "Boards and sharing"): whom a
// board may be shared with.
export interface ShareCandidate { id: string; username: string; email?: string }

/** The tenant's users holding the kind's module (share_user_list). */
export const SHARE_USER_LIST = 'query($kind: String!) { share_user_list(kind: $kind) { id username email } }';

/** The tenant's API users (a public-API board may be shared with them). */
export const API_USER_LIST = '{ api_user_list { id username } }';
