// A telemetry key: typed, or chosen from the keys the chosen entities (or entity types) have
// actually reported (GET /telemetry-keys); the tenant's keys when none are chosen yet. Escape
// closes the suggestions and keeps what was typed.
import { useCustom } from '@refinedev/core';
import { AutoComplete } from 'antd';
import { apiPaths } from '../../resources/apiMap.ts';

interface TelemetryKeyInputProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  label: string;
  maxLength?: number;
  entityIds?: readonly number[];
  entityTypeIds?: readonly number[];
}

export function TelemetryKeyInput({ id, value, onChange, label, maxLength, entityIds, entityTypeIds }: TelemetryKeyInputProps) {
  const query: Record<string, string> = {};
  if (entityIds?.length) query.ids = entityIds.join(',');
  if (entityTypeIds?.length) query.types = entityTypeIds.join(',');
  const { query: keysCall } = useCustom<string[]>({
    url: apiPaths.telemetryKeys,
    method: 'get',
    config: { query },
    errorNotification: false,
    queryOptions: { staleTime: 60_000 },
  });
  const keys = keysCall.data?.data ?? [];
  const typed = (value ?? '').toLowerCase();
  return (
    <AutoComplete
      id={id}
      value={value}
      onChange={onChange}
      aria-label={label}
      maxLength={maxLength}
      options={keys.filter((key) => key.toLowerCase().includes(typed)).map((key) => ({ value: key, label: key }))}
      style={{ width: '100%' }}
    >
      {/* rc-select's own input is a search field, which the browser empties on Escape */}
      <input type="text" />
    </AutoComplete>
  );
}
