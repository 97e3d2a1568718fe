// What the map shows and how it is coloured: the map level, the groups drawn in their colours,
// the colour-by attribute and its colouring rules. Every choice is kept in the dashboard state.
import { Alert, Card, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAttributeName } from '../../i18n/attributeNames.ts';
import { ColourRulesEditor } from './ColourRulesEditor.tsx';
import type { DashboardState } from './dashboardState.ts';
import { GroupSelect } from './GroupSelect.tsx';
import { LevelSelect } from './LevelSelect.tsx';
import type { TenantGroup } from './useMapColouring.ts';

interface MapFiltersCardProps {
  state: DashboardState;
  onChange(change: Partial<DashboardState>): void;
  /** The levels present on the map. */
  levels: readonly number[];
  groups: readonly TenantGroup[];
  /** The attributes the map can colour by. */
  attributes: readonly string[];
  /** The members of a chosen group could not be loaded. */
  membersFailed: boolean;
}

export function MapFiltersCard({ state, onChange, levels, groups, attributes, membersFailed }: MapFiltersCardProps) {
  const { t } = useTranslation();
  const attributeName = useAttributeName();
  const { attribute } = state;
  return (
    <Card size="small" title={t('dashboardFilters.title')}>
      <Form layout="vertical" component={false}>
        <Form.Item label={t('dashboardFilters.level')} htmlFor="map-level">
          <LevelSelect id="map-level" levels={levels} value={state.level} onChange={(level) => onChange({ level })} />
        </Form.Item>
        <Form.Item label={t('dashboardFilters.groups')} htmlFor="map-groups">
          <GroupSelect id="map-groups" groups={groups} value={state.groups} onChange={(chosen) => onChange({ groups: chosen })} />
        </Form.Item>
        {membersFailed && <Alert type="error" showIcon message={t('dashboardFilters.groupsFailed')} style={{ marginBottom: 16 }} />}
        <Form.Item label={t('dashboard.colourBy')} htmlFor="map-colour-by">
          <Select
            id="map-colour-by"
            data-testid="colour-select"
            style={{ width: '100%' }}
            allowClear
            showSearch // tenants with many attributes find one by typing
            optionFilterProp="label"
            value={attribute}
            options={attributes.map((key) => ({ value: key, label: attributeName(key) }))}
            onChange={(key?: string) => onChange({ attribute: key })}
          />
        </Form.Item>
        {attribute !== undefined && (
          <ColourRulesEditor
            key={attribute}
            attribute={attribute}
            ruleSet={state.rules[attribute]}
            onChange={(ruleSet) => onChange({ rules: { ...state.rules, [attribute]: ruleSet } })}
          />
        )}
      </Form>
    </Card>
  );
}
