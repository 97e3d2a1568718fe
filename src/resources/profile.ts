import { profileSchema } from '../schemas/profile.ts';
import { defineResource } from './defineResource.ts';

// Creating and editing a profile is the generated form beside a preview of its day (src/pageTable.tsx).
export const profileResource = defineResource(profileSchema, {
  route: '/studio/profiles', titleKey: 'routes.profiles',
});
