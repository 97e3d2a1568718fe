// The groups whose members the map draws in their group's colour (the rest dimmed).
import { Select } from 'antd';
import { MAX_GROUPS } from '../../components/map/core/groupColours.ts';
import type { TenantGroup } from './useMapColouring.ts';

interface GroupSelectProps {
  id?: string;
  groups: readonly TenantGroup[];
  value: readonly number[];
  onChange(groups: number[]): void;
}

export function GroupSelect({ id, groups, value, onChange }: GroupSelectProps) {
  return (
    <Select<number[]>
      id={id}
      mode="multiple"
      allowClear
      data-testid="group-select"
      style={{ width: '100%' }}
      maxCount={MAX_GROUPS}
      optionFilterProp="label"
      // ids of groups that no longer exist are not shown (nor drawn)
      value={groups.length ? value.filter((id) => groups.some((group) => group.id === id)) : []}
      options={groups.map((group) => ({ value: group.id, label: group.name }))}
      onChange={onChange}
    />
  );
}
