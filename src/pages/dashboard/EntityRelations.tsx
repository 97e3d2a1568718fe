// The selected entity's parent and children by name (SPEC §2 entity detail), each selecting that
// entity; many children are cut short with "and N more", the tree view showing them all.
import { useMany } from '@refinedev/core';
import { Button, Descriptions, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pickLocalized } from '../../shared/i18n/pickLocalized.ts';
import type { EntityJson } from '../../schemas/entityJson.ts';

/** Children named, at most; the rest are counted. */
export const CHILDREN_SHOWN = 10;

interface EntityRelationsProps {
  id: number;
  parentId: number | null;
  /** The first children's ids (GET /entity/{id} lists MAX_LISTED_CHILDREN at most)… */
  childIds: readonly number[];
  /** …and how many there are. */
  childCount: number;
  onSelect(id: number): void;
}

export function EntityRelations({ id, parentId, childIds, childCount, onSelect }: EntityRelationsProps) {
  const { t, i18n } = useTranslation();
  const shown = childIds.slice(0, CHILDREN_SHOWN);
  const ids = parentId === null ? shown : [parentId, ...shown];
  const { result } = useMany<EntityJson>({ resource: 'entities', ids, errorNotification: false, queryOptions: { enabled: ids.length > 0 } });
  const nameOf = (other: number) => pickLocalized(result.data?.find((entity) => entity.id === other)?.name, i18n.language) || `#${other}`;
  const entityButton = (other: number) => (
    <Button key={other} type="link" size="small" style={{ paddingInline: 0 }} onClick={() => onSelect(other)}>{nameOf(other)}</Button>
  );
  return (
    <Descriptions size="small" column={1} data-testid="entity-relations">
      <Descriptions.Item label={t('dashboard.entity.parent')}>{parentId === null ? '—' : entityButton(parentId)}</Descriptions.Item>
      <Descriptions.Item label={t('dashboard.entity.children')}>
        <Space direction="vertical" size={0} data-testid="entity-children">
          {childCount === 0 ? '—' : shown.map(entityButton)}
          {childCount > shown.length && <span>{t('dashboardFilters.more', { count: childCount - shown.length })}</span>}
          <Link to={`/dashboard/tree-view/${id}`}>{t('routes.treeView')}</Link>
        </Space>
      </Descriptions.Item>
    </Descriptions>
  );
}
