// The profile a lamp follows and what it reaches the lamp through: the lamp's own assignment, a
// group's, or a zone's or region's above it (docs/lighting.md). The profile's name opens its
// editor for those who may edit profiles.
import { useCan, useOne } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useShellData } from '../../components/layout/shellData.ts';
import { pickLocalized } from '../../shared/i18n/pickLocalized.ts';
import { profileResource } from '../../resources/profile.ts';
import type { EntityJson } from '../../schemas/entityJson.ts';
import type { LampLighting } from './queries.ts';

/** Which words say where the assignment comes from. */
function throughKey(through: NonNullable<LampLighting['through']>, lampId: number, systemName: unknown): string {
  if (through.kind === 'group') return 'group';
  if (Number(through.id) === lampId) return 'own';
  return systemName === 'zone' || systemName === 'region' ? systemName : 'entity';
}

export function LampAssignment({ lampId, profile, through }: { lampId: number; profile: LampLighting['profile']; through: LampLighting['through'] }) {
  const { t, i18n } = useTranslation();
  const { entityTypes } = useShellData();
  const { data: canEdit } = useCan({ resource: profileResource.name, action: 'edit' });
  // an assignment above the lamp: is it a zone's or a region's?
  const area = through?.kind === 'entity' && Number(through.id) !== lampId ? Number(through.id) : undefined;
  const { result: areaEntity } = useOne<EntityJson>({ resource: 'entities', id: area, errorNotification: false, queryOptions: { enabled: area !== undefined } });
  if (!profile) return <>{t('lighting.lamp.noProfile')}</>;

  const systemName = entityTypes.find((type) => type.id === areaEntity?.entity_type_id)?.attributes?.system_name;
  const name = canEdit?.can ? <Link className="lamp-profile-link" to={`${profileResource.route}/edit/${profile.id}`} data-testid="lamp-profile">{profile.name}</Link> : <span data-testid="lamp-profile">{profile.name}</span>;
  // one inline element: the space before the parenthesis would be lost between a list cell's flex items
  return (
    <span>
      {name}
      {through && ` (${t(`lighting.lamp.through.${throughKey(through, lampId, systemName)}`, { name: pickLocalized(through.name, i18n.language) })})`}
    </span>
  );
}
