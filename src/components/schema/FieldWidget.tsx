// The input of one field, chosen by its `x-widget` (or its type): text, password, multilingual text,
// number, enum (translated), switch, colour, date/time, entity / entity-type / group pickers,
// telemetry keys the chosen entities report, cron, JSON, a scheduler's complex query with its test,
// a KPI, rich text.
import { useSelect } from '@refinedev/antd';
import { Suspense, useContext } from 'react';
import { lazyWithReload } from '../../pwa/chunkReload.ts';
import { ColorPicker, DatePicker, Input, InputNumber, Select, Switch, TimePicker } from 'antd';
import type { Color } from 'antd/es/color-picker';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { FieldSchema } from '../../schemas/model.ts';
import { pickLocalized, type LocalizedValue } from '../../shared/i18n/pickLocalized.ts';
import { ComplexQueryInput } from './ComplexQueryInput.tsx';
import { CronInput } from './CronInput.tsx';
import { MediaUrlInput } from './MediaUrlInput.tsx';
import { TelemetryKeyInput } from './TelemetryKeyInput.tsx';
import { PickerScopeContext } from './pickerScope.ts';

// the editor is large: loaded with the first form that has rich text
const RichTextInput = lazyWithReload(() => import('../richtext/RichTextInput.tsx'));

export interface WidgetProps {
  id?: string;
  value?: any;
  onChange?: (value: any) => void;
  schema: FieldSchema;
  /** The field's own name (enum values are translated as `enumValues.<name>.<value>`). */
  name: string;
  label: string;
  /** Enum values the user may not choose (x-value-permissions, x-value-claim). */
  disabledValues?: readonly unknown[];
  /** The value of the object the field belongs to (a widget may depend on its siblings). */
  record?: Record<string, unknown>;
}

const typesOf = (schema: FieldSchema) => (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => t && t !== 'null');

/** The widget a field uses when it names none. */
export function widgetOf(schema: FieldSchema): string {
  if (schema['x-widget']) return schema['x-widget'];
  const [type, ...more] = typesOf(schema);
  if (more.length) return 'text';
  if (schema.enum) return 'enum';
  if (type === 'boolean') return 'switch';
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'string' && schema.format === 'date-time') return 'datetime';
  if (type === 'object' || type === 'array') return 'json';
  return 'text';
}

/** Props antd's Form.Item needs to hold widgets whose value is not what the API stores. */
export function valueAdapters(widget: string): { getValueProps?: (value: any) => Record<string, unknown>; normalize?: (value: any) => unknown; getValueFromEvent?: (...args: any[]) => unknown } {
  switch (widget) {
    case 'datetime':
      return { getValueProps: (value: string | undefined) => ({ value: value ? dayjs(value) : undefined }), normalize: (value: Dayjs | null) => value?.toISOString() };
    case 'date':
      return { getValueProps: (value: string | undefined) => ({ value: value ? dayjs(value) : undefined }), normalize: (value: Dayjs | null) => value?.format('YYYY-MM-DD') };
    case 'time':
      return { getValueProps: (value: string | undefined) => ({ value: value ? dayjs(value, 'HH:mm') : undefined }), normalize: (value: Dayjs | null) => value?.format('HH:mm') };
    case 'colour':
      return { getValueFromEvent: (color: Color) => color.toHexString() };
    case 'json':
      return {
        getValueProps: (value: unknown) => ({ value: typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value, null, 2) }),
        normalize: (text: string) => {
          try {
            return text.trim() ? JSON.parse(text) : undefined;
          } catch {
            return text; // invalid JSON stays as typed; validation names the field
          }
        },
      };
    default:
      return {};
  }
}

function EnumSelect({ id, value, onChange, schema, name, disabledValues, multiple }: WidgetProps & { multiple?: boolean }) {
  const { t } = useTranslation();
  const values = (multiple ? schema.items?.enum : schema.enum) ?? [];
  const options = values.filter((option) => option !== null).map((option) => ({
    value: option as string,
    label: t(`enumValues.${name}.${String(option)}`, { defaultValue: String(option) }),
    disabled: disabledValues?.includes(option),
  }));
  return <Select id={id} value={value} onChange={onChange} options={options} mode={multiple ? 'multiple' : undefined} allowClear={!multiple} />;
}

/** Picks records of a resource by name, searching on the server where the list can; a page may narrow it (PickerScopeContext). */
function RecordPicker(props: WidgetProps & { resource: string; multiple: boolean; serverSearch: boolean }) {
  const { id, value, onChange, name, resource, multiple, serverSearch } = props;
  const { i18n } = useTranslation();
  const scope = useContext(PickerScopeContext)[name];
  const { selectProps } = useSelect<{ id: number; name: LocalizedValue }>({
    resource,
    filters: scope?.filters,
    optionLabel: (item) => pickLocalized(item.name, i18n.language) || `#${item.id}`,
    optionValue: (item) => item.id as never,
    // a server-searched list answers its first matches (the entities of a big tenant are not all sent)
    pagination: serverSearch ? { mode: 'server', pageSize: 50 } : { mode: 'off' },
    defaultValue: value,
    ...(serverSearch ? { onSearch: (text: string) => [{ field: 'search', operator: 'contains' as const, value: text }] } : {}),
  });
  return (
    <Select
      {...selectProps}
      options={scope?.ids ? selectProps.options?.filter((option) => scope.ids!.includes(Number(option.value))) : selectProps.options}
      {...(serverSearch ? {} : { onSearch: undefined, filterOption: (input: string, option?: { label?: unknown }) => String(option?.label ?? '').toLowerCase().includes(input.toLowerCase()) })}
      id={id}
      aria-label={props.label}
      value={value}
      onChange={(next) => onChange?.(next)}
      mode={multiple ? 'multiple' : undefined}
      allowClear
      showSearch
    />
  );
}

export function FieldWidget(props: WidgetProps) {
  const { id, value, onChange, schema, label } = props;
  const widget = widgetOf(schema);
  switch (widget) {
    case 'password':
      // a new password for someone else's account (an API user): not the signed-in user's own
      return <Input.Password id={id} value={value} onChange={(event) => onChange?.(event.target.value)} maxLength={schema.maxLength} autoComplete="new-password" aria-label={label} />;
    case 'textarea':
      return <Input.TextArea id={id} value={value} onChange={(event) => onChange?.(event.target.value)} autoSize={{ minRows: 2, maxRows: 8 }} maxLength={schema.maxLength} aria-label={label} />;
    case 'number':
      return <InputNumber id={id} value={value} onChange={onChange} style={{ width: '100%' }} aria-label={label} step={typesOf(schema).includes('integer') ? 1 : undefined} />;
    case 'enum':
      return <EnumSelect {...props} />;
    case 'enum-multiple':
      return <EnumSelect {...props} multiple />;
    case 'switch':
      return <Switch id={id} checked={!!value} onChange={onChange} aria-label={label} />;
    case 'colour':
      return <ColorPicker value={value} onChange={(color) => onChange?.(color)} showText aria-label={label} />;
    case 'datetime':
      return <DatePicker id={id} value={value} onChange={onChange} showTime style={{ width: '100%' }} aria-label={label} />;
    case 'date':
      return <DatePicker id={id} value={value} onChange={onChange} style={{ width: '100%' }} aria-label={label} />;
    case 'time':
      return <TimePicker id={id} value={value} onChange={onChange} format="HH:mm" minuteStep={5} style={{ width: '100%' }} aria-label={label} />;
    case 'entities':
    case 'entity':
      return <RecordPicker {...props} resource="entities" multiple={widget === 'entities'} serverSearch />;
    case 'entity-types':
    case 'entity-type':
      return <RecordPicker {...props} resource="entity_types" multiple={widget === 'entity-types'} serverSearch={false} />;
    case 'groups':
    case 'group':
      return <RecordPicker {...props} resource="groups" multiple={widget === 'groups'} serverSearch={false} />;
    case 'kpi':
      return <RecordPicker {...props} resource="kpi" multiple={false} serverSearch={false} />;
    case 'richtext':
      return <Suspense fallback={<Input.TextArea disabled aria-label={label} />}><RichTextInput id={id} value={value} onChange={onChange} label={label} maxLength={schema.maxLength} /></Suspense>;
    case 'media-url':
      return <MediaUrlInput id={id} value={value} onChange={onChange} label={label} maxLength={schema.maxLength} />;
    case 'telemetry-key':
      return <TelemetryKeyInput id={id} value={value} onChange={onChange} label={label} maxLength={schema.maxLength}
        entityIds={props.record?.entity_ids as number[] | undefined} entityTypeIds={props.record?.entity_type_ids as number[] | undefined} />;
    case 'cron':
      return <CronInput id={id} value={value} onChange={onChange} aria-label={label} />;
    case 'complex-query':
      return <ComplexQueryInput id={id} value={value} onChange={onChange} label={label} maxLength={schema.maxLength} timeSlot={props.record?.time_slot as string | undefined} />;
    case 'json':
      return <Input.TextArea id={id} value={value} onChange={(event) => onChange?.(event.target.value)} autoSize={{ minRows: 2, maxRows: 10 }} className="json-input" aria-label={label} />;
    default:
      return <Input id={id} value={value} onChange={(event) => onChange?.(event.target.value)} maxLength={schema.maxLength} aria-label={label} />;
  }
}
