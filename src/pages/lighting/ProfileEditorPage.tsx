// The lighting profile editor (/studio/profiles/create, /studio/profiles/edit/{id}): the profile's
// generated schema form beside its day preview (under it on narrow screens).
import type { ModelResource } from '../../resources/defineResource.ts';
import ResourceFormPage from '../resources/ResourceFormPage.tsx';
import { DayTimelinePreview } from './DayTimelinePreview.tsx';

export default function ProfileEditorPage({ resource, action }: { resource: ModelResource; action: 'create' | 'edit' }) {
  return <ResourceFormPage resource={resource} action={action} aside={DayTimelinePreview} />;
}
