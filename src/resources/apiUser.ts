import { apiUserSchema } from '../schemas/apiUser.ts';
import type { ModelSchema } from '../schemas/model.ts';
import { defineResource } from './defineResource.ts';

// The tenant's API users, inside the public-API dashboard: one page lists them, creates one (its
// token shown once), changes a password and deletes, through the model's own doors.
export const apiUserResource = defineResource(apiUserSchema as unknown as ModelSchema, {
  route: '/public-api-dashboard/api-users', titleKey: 'apiUsers.title', ownPage: true,
});
