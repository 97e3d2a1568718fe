// Entity search by name (SPEC §2 navigation labels): any language, case-insensitive, in the
// selected region; 'Nothing found' when nothing matches. Enter takes the first match (once the
// matches have arrived, when it is pressed before).
import { useList } from '@refinedev/core';
import { AutoComplete, Input } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickLocalized } from '../../shared/i18n/pickLocalized.ts';
import type { EntityJson } from '../../schemas/entityJson.ts';

export function EntitySearch({ onSelect }: { onSelect(id: number): void }) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState('');
  /** Enter was pressed for this text before its matches arrived. */
  const [entered, setEntered] = useState<string>();
  const search = text.trim();
  const { result, query } = useList<EntityJson>({
    resource: 'entities',
    filters: [{ field: 'search', operator: 'eq', value: search }],
    pagination: { mode: 'server', pageSize: 20 },
    errorNotification: false,
    queryOptions: { enabled: search.length > 0 },
  });
  const firstMatch = search && !query.isFetching ? result.data?.[0]?.id : undefined;
  const options = search ? (result.data ?? []).map((entity) => ({ value: String(entity.id), label: pickLocalized(entity.name, i18n.language) })) : [];
  const choose = (id: number) => {
    setText('');
    setEntered(undefined);
    onSelect(id);
  };

  useEffect(() => {
    if (entered === undefined) return;
    if (entered !== search) return setEntered(undefined); // chosen from the list, or typed on
    if (query.isFetching) return;
    setEntered(undefined); // nothing found: the list says so
    if (firstMatch === undefined) return;
    setText('');
    onSelect(firstMatch);
  }, [entered, search, query.isFetching, firstMatch, onSelect]);

  return (
    <AutoComplete
      style={{ width: '100%' }}
      options={options}
      value={text}
      onChange={setText}
      // Enter takes the first match (the one highlighted), arrows another
      defaultActiveFirstOption
      onSelect={(value: string) => choose(Number(value))}
      notFoundContent={search ? t('dashboard.nothingFound') : null}
    >
      <Input.Search placeholder={t('dashboard.search')} aria-label={t('dashboard.search')} allowClear
        onSearch={(value, _event, info) => {
          // Noted on every Enter; the effect takes the first match once the matches are there. When
          // the open list took this Enter itself (an option chosen: the text is cleared in the same
          // event), the effect drops the note. Before, an Enter on matches whose list was not yet
          // open or active was lost.
          if (info?.source !== 'clear' && value.trim()) setEntered(value.trim());
        }} />
    </AutoComplete>
  );
}
