// The studio kind's entities in the selected region, a page at a time from the server (a tenant may
// have 100,000 devices), searchable by name; choosing one opens it in the editor, and a search
// (Enter) opens its first match.
import { useList } from '@refinedev/core';
import { Button, Empty, Input, List } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickLocalized } from '../../shared/i18n/pickLocalized.ts';
import type { EntityJson } from '../../schemas/entityJson.ts';

const PAGE_SIZE = 50;

interface StudioEntityListProps {
  typeIds: number[];
  /** The region whose subtree is listed; every entity of the types without it. */
  region?: number;
  openId?: number;
  onOpen(entity: EntityJson): void;
}

export function StudioEntityList({ typeIds, region, openId, onOpen }: StudioEntityListProps) {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const [currentPage, setCurrentPage] = useState(1);
  const { result, query } = useList<EntityJson>({
    resource: 'entities',
    filters: [
      { field: 'types', operator: 'in', value: typeIds },
      { field: 'region', operator: 'eq', value: region },
      { field: 'search', operator: 'contains', value: search.trim() },
    ],
    pagination: { mode: 'server', currentPage, pageSize: PAGE_SIZE },
    errorNotification: false,
    queryOptions: { enabled: typeIds.length > 0 },
  });
  const entities = result.data ?? [];
  /** A search was asked for: its first match opens when the matches arrive. */
  const [openFirst, setOpenFirst] = useState(false);
  const firstMatch = result.data?.[0];
  useEffect(() => {
    if (!openFirst || query.isFetching) return;
    setOpenFirst(false);
    if (firstMatch) onOpen(firstMatch);
  }, [openFirst, query.isFetching, firstMatch, onOpen]);
  return (
    <>
      <Input.Search allowClear placeholder={t('studio.search')} aria-label={t('studio.search')} style={{ marginBottom: 8 }}
        onSearch={(text, _event, info) => {
          setSearch(text);
          setCurrentPage(1);
          setOpenFirst(info?.source !== 'clear' && text.trim().length > 0);
        }} data-testid="studio-search" />
      {entities.length === 0 && !query.isFetching ? <Empty description={t(search ? 'dashboard.nothingFound' : 'errors.noData')} /> : (
        <List size="small" dataSource={entities} loading={query.isFetching}
          pagination={(result.total ?? 0) > PAGE_SIZE ? {
            current: currentPage, pageSize: PAGE_SIZE, total: result.total, size: 'small', showSizeChanger: false, onChange: setCurrentPage,
          } : false}
          renderItem={(entity) => (
            <List.Item>
              <Button type="link" onClick={() => onOpen(entity)} aria-current={openId === entity.id}>{pickLocalized(entity.name, i18n.language)}</Button>
            </List.Item>
          )} />
      )}
    </>
  );
}
