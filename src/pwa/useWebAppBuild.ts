// While signed in, the server tells this tab over the live connection which build it serves — at
// once, again after each deploy, and again after every reconnection (a restarted server): a build
// other than this page's makes the service worker look for it at once.
import { useLiveSubscription } from '../providers/useLiveSubscription.ts';
import { appUpdates } from './appUpdates.ts';
import { WEB_APP_BUILD_SUBSCRIPTION, type WebAppBuildData } from './queries.ts';

export function useWebAppBuild() {
  useLiveSubscription<WebAppBuildData>({ query: WEB_APP_BUILD_SUBSCRIPTION }, (data) => appUpdates.announced(data.web_app_build.build_id));
}
