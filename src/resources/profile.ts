import { profileSchema } from '../schemas/profile.ts';
import { defineResource } from './defineResource.ts';

export const profileResource = defineResource(profileSchema, { route: '/studio/profiles', titleKey: 'routes.profiles' });
