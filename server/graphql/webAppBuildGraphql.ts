// The subscription `web_app_build`: the id of the web app's build this instance serves, at once and
// after every deploy (server/live/webAppBuild.ts). Open tabs compare it with their own and look for
// the new version (src/pwa/). Any signed-in user; it takes no arguments and tells nothing of a tenant.
import type { IResolvers } from 'mercurius';
import { WEB_APP_BUILD_TOPIC, type WebAppBuild } from '../live/webAppBuild.ts';

export const webAppBuildTypeDefs = /* GraphQL */ `
  type WebAppBuild { build_id: String }

  extend type Subscription {
    web_app_build: WebAppBuild!
  }
`;

export const webAppBuildEvent = (buildId: string | undefined) => ({ web_app_build: { build_id: buildId ?? null } });

export function webAppBuildResolvers(build: WebAppBuild): IResolvers {
  return {
    Subscription: {
      web_app_build: {
        subscribe: async (_root: unknown, _args: unknown, context: any) => {
          const queue = await context.pubsub.subscribe(WEB_APP_BUILD_TOPIC);
          queue.push(webAppBuildEvent(build.current()));
          return queue;
        },
      },
    },
  } as IResolvers;
}
