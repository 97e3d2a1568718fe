// The subtree of an entity as an antd Tree: names in the interface language with their type, a
// level loaded when its node is opened (a big tenant is never loaded whole), and a search by name
// over the whole subtree whose matches replace the tree while it has text. Choosing a node (click,
// or Enter on the focused one) answers its id.
import { SearchOutlined } from '@ant-design/icons';
import { useList } from '@refinedev/core';
import { Input, Space, Tag, Tree, Typography, type TreeDataNode } from 'antd';
import { useCallback, useEffect, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { useShellData } from '../../components/layout/shellData.ts';
import { pickLocalized } from '../../shared/i18n/pickLocalized.ts';
import type { EntityJson } from '../../schemas/entityJson.ts';
import { useTreeLevelLoader, type TreeEntity } from './entityTreeLevel.ts';
import { useErrorToast } from '../../components/useErrorToast.ts';

/** Search matches shown, at most; the rest are counted. */
const MATCHES_SHOWN = 200;
const SEARCH_PAUSE_MS = 300;
const TREE_HEIGHT = 560;

interface EntityTreeProps {
  root: TreeEntity;
  onChoose(id: number): void;
}

export function EntityTree({ root, onChoose }: EntityTreeProps) {
  const { t, i18n } = useTranslation();
  const showError = useErrorToast();
  const { entityTypes } = useShellData();
  const loadLevel = useTreeLevelLoader();
  // each opened node's children, and how many more it has than are shown
  const [childrenOf, setChildrenOf] = useState(() => new Map([[root.id, { children: root.children ?? [], more: root.moreChildren ?? 0 }]]));
  const [text, setText] = useState('');
  const search = useSettled(text.trim());
  const matchesCall = useList<EntityJson>({
    resource: 'entities',
    filters: [{ field: 'region', operator: 'eq', value: root.id }, { field: 'search', operator: 'eq', value: search }],
    // the first matches in tree order, and how many there are (a big subtree is not sent whole)
    pagination: { mode: 'server', currentPage: 1, pageSize: MATCHES_SHOWN },
    errorNotification: false,
    queryOptions: { enabled: search.length > 0 },
  });
  const matches = search ? (matchesCall.result.data ?? []) : [];
  const matchCount = search ? matchesCall.result.total ?? matches.length : 0;

  const loadChildren = useCallback(async ({ key }: { key: Key }) => {
    if (childrenOf.has(String(key))) return;
    try {
      const level = await loadLevel(Number(key));
      setChildrenOf((known) => new Map(known).set(String(key), { children: level?.children ?? [], more: level?.moreChildren ?? 0 }));
    } catch {
      showError(t('dashboardFilters.tree.loadFailed'));
    }
  }, [childrenOf, loadLevel, showError, t]);

  const nodeOf = (entity: TreeEntity): TreeDataNode => {
    const level = childrenOf.get(entity.id);
    const type = entityTypes.find((candidate) => candidate.id === Number(entity.entity_type_id))?.name;
    return {
      key: entity.id,
      title: <span data-testid="tree-node"><span>{pickLocalized(entity.name, i18n.language) || `#${entity.id}`}</span>{type && <Tag style={{ marginInlineStart: 8 }}>{type}</Tag>}</span>,
      isLeaf: level?.children.length === 0,
      children: level && [
        ...level.children.map(nodeOf),
        ...(level.more ? [{ key: `${entity.id}-more`, isLeaf: true, selectable: false, title: <Typography.Text type="secondary">{t('dashboardFilters.more', { count: level.more })}</Typography.Text> }] : []),
      ],
    };
  };
  const treeData = search
    ? matches.map((entity) => nodeOf({ id: String(entity.id), name: entity.name, entity_type_id: String(entity.entity_type_id) }))
    : [nodeOf(root)];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Input allowClear prefix={<SearchOutlined aria-hidden />} value={text} onChange={(event) => setText(event.target.value)}
        placeholder={t('dashboardFilters.tree.search')} aria-label={t('dashboardFilters.tree.search')} data-testid="tree-search" />
      {search && !matchesCall.query.isFetching && matches.length === 0 ? (
        <Typography.Text type="secondary">{t('dashboard.nothingFound')}</Typography.Text>
      ) : (
        <Tree
          aria-label={t('dashboardFilters.tree.label', { name: pickLocalized(root.name, i18n.language) })}
          data-testid="entity-tree"
          treeData={treeData}
          loadData={loadChildren}
          defaultExpandedKeys={[root.id]}
          height={TREE_HEIGHT}
          onSelect={(keys) => keys.length > 0 && onChoose(Number(keys[0]))}
        />
      )}
      {matchCount > matches.length && <Typography.Text type="secondary">{t('dashboardFilters.more', { count: matchCount - matches.length })}</Typography.Text>}
    </Space>
  );
}

/** `value` once it has stopped changing for a moment (a search is not sent for every key). */
function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}
