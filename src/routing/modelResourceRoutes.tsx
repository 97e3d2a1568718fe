// The routes of every model resource (src/resources/modelResources.ts): list, create and edit,
// each open only to users the page table lets do that action (else back to /).
import type { ReactNode } from 'react';
import { lazyWithReload } from '../pwa/chunkReload.ts';
import { Route } from 'react-router';
import type { ModelResource } from '../resources/defineResource.ts';
import { MODEL_RESOURCES } from '../resources/modelResources.ts';
import type { Action } from '../schemas/model.ts';
import { ProfileLayout } from '../pages/profile/ProfileLayout.tsx';
import { resourceAccess } from './pageTable.tsx';
import { RequireAccess } from './RequireAccess.tsx';

const ResourceListPage = lazyWithReload(() => import('../pages/resources/ResourceListPage.tsx'));
const ResourceFormPage = lazyWithReload(() => import('../pages/resources/ResourceFormPage.tsx'));
/** Each resource's create/edit page: its own (the KPI builder) or the generated form. */
const FORM_PAGES = new Map(MODEL_RESOURCES.map((resource) => [resource.name, resource.formPage ? lazyWithReload(resource.formPage) : ResourceFormPage]));
/** Resources whose one page lists, creates and edits (API users). */
const OWN_PAGES = new Map(MODEL_RESOURCES.filter((resource) => resource.ownPage).map((resource) => [resource.name, lazyWithReload(resource.ownPage!)]));

function RequireAction({ resource, action, children }: { resource: ModelResource; action: Action; children: ReactNode }) {
  return <RequireAccess access={resourceAccess(resource, action)}>{children}</RequireAccess>;
}

/** Pages under /profile keep the profile's sidebar. */
const framed = (resource: ModelResource, page: ReactNode) => (resource.route.startsWith('/profile/') ? <ProfileLayout>{page}</ProfileLayout> : page);

function FormPage({ resource, action }: { resource: ModelResource; action: 'create' | 'edit' }) {
  const Page = FORM_PAGES.get(resource.name)!;
  return <Page key={`${resource.name}-${action}`} resource={resource} action={action} />;
}

export function modelResourceRoutes() {
  return MODEL_RESOURCES.filter((resource) => resource.pages !== false).flatMap((resource) => {
    const OwnPage = OWN_PAGES.get(resource.name);
    if (OwnPage) {
      return [<Route key={`${resource.name}-list`} path={resource.route} element={<RequireAction resource={resource} action="read"><OwnPage resource={resource} /></RequireAction>} />];
    }
    return [
      <Route key={`${resource.name}-list`} path={resource.route} element={
        <RequireAction resource={resource} action="read">{framed(resource, <ResourceListPage key={resource.name} resource={resource} />)}</RequireAction>
      } />,
      <Route key={`${resource.name}-create`} path={`${resource.route}/create`} element={
        <RequireAction resource={resource} action="create">{framed(resource, <FormPage resource={resource} action="create" />)}</RequireAction>
      } />,
      <Route key={`${resource.name}-edit`} path={`${resource.route}/edit/:id`} element={
        <RequireAction resource={resource} action="update">{framed(resource, <FormPage resource={resource} action="edit" />)}</RequireAction>
      } />,
    ];
  });
}
