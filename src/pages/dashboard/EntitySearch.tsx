// Entity search by name (SPEC §2 navigation labels): any language, case-insensitive, in the
// selected region; 'Nothing found' when nothing matches.
import { useList } from '@refinedev/core';
import { AutoComplete, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickLocalized } from '../../i18n/pickLocalized.ts';
import type { EntityJson } from '../../schemas/entityJson.ts';

export function EntitySearch({ onSelect }: { onSelect(id: number): void }) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState('');
  const search = text.trim();
  const { result } = useList<EntityJson>({
    resource: 'entities',
    filters: [{ field: 'search', operator: 'eq', value: search }],
    pagination: { mode: 'server', pageSize: 20 },
    errorNotification: false,
    queryOptions: { enabled: search.length > 0 },
  });
  const options = search ? (result.data ?? []).map((entity) => ({ value: String(entity.id), label: pickLocalized(entity.name, i18n.language) })) : [];
  return (
    <AutoComplete
      style={{ width: '100%' }}
      options={options}
      value={text}
      onChange={setText}
      onSelect={(value: string) => {
        setText('');
        onSelect(Number(value));
      }}
      notFoundContent={search ? t('dashboard.nothingFound') : null}
    >
      <Input.Search placeholder={t('dashboard.search')} aria-label={t('dashboard.search')} allowClear />
    </AutoComplete>
  );
}
