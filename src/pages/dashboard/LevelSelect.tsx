// The map level shown: one of the levels the region's entities are at, or all of them.
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';

const ALL_LEVELS = 'all';

interface LevelSelectProps {
  id?: string;
  /** The levels present on the map. */
  levels: readonly number[];
  value?: number;
  onChange(level: number | undefined): void;
}

export function LevelSelect({ id, levels, value, onChange }: LevelSelectProps) {
  const { t } = useTranslation();
  // a kept level the region does not have stays visible as chosen (the map then shows nothing)
  const shown = [...new Set(value === undefined ? levels : [...levels, value])].sort((a, b) => a - b);
  return (
    <Select<number | typeof ALL_LEVELS>
      id={id}
      data-testid="level-select"
      style={{ width: '100%' }}
      value={value ?? ALL_LEVELS}
      options={[
        { value: ALL_LEVELS, label: t('dashboardFilters.allLevels') },
        ...shown.map((level) => ({ value: level, label: t('dashboardFilters.levelOption', { level }) })),
      ]}
      onChange={(chosen) => onChange(chosen === ALL_LEVELS ? undefined : chosen)}
    />
  );
}
