// The build of the web app the server serves (server/graphql/webAppBuildGraphql.ts).
export const WEB_APP_BUILD_SUBSCRIPTION = 'subscription WebAppBuild { web_app_build { build_id } }';

export interface WebAppBuildData { web_app_build: { build_id: string | null } }
