// A field's value in a list cell or a detail view: tags for enums and flags, dates in the
// interface language, multilingual text in the current language, JSON compact.
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FieldSchema } from '../../schemas/model.ts';
import { pickLocalized, type LocalizedValue } from '../../shared/i18n/pickLocalized.ts';
import { LogMessage } from '../../components/LogMessage.tsx';
import './resources.css';

/** `record` is the whole record, for the values told from other fields (a log's message from its data). */
export function RecordValue({ field, schema, value, record }: { field: string; schema: FieldSchema; value: unknown; record?: Record<string, unknown> }) {
  const { t, i18n } = useTranslation();
  const tags = schema['x-tags'];
  if (tags && Array.isArray(value)) return <>{value.map((item) => <RecordValue key={String(item)} field={field} schema={schema} value={item} />)}</>;
  if (tags) {
    const key = String(value);
    const text = t(`enumValues.${field}.${key}`, { defaultValue: key });
    return <Tag color={tags[key] ?? 'default'} className="record-tag" data-testid={`tag-${field}`}>{text}</Tag>;
  }
  if (value === undefined || value === null || value === '') return <Typography.Text type="secondary">—</Typography.Text>;
  if (schema['x-widget'] === 'log-message') return <LogMessage message={String(value)} source={record?.source} data={record?.message_data} />;
  if (schema['x-widget'] === 'entity-link') {
    const entity = value as { id: number; name: LocalizedValue };
    return <Link to={`/dashboard/entity/${entity.id}`}>{pickLocalized(entity.name, i18n.language) || `#${entity.id}`}</Link>;
  }
  if (schema['x-widget'] === 'multilingual') return <>{pickLocalized(value as LocalizedValue, i18n.language)}</>;
  if (schema.enum) return <>{t(`enumValues.${field}.${String(value)}`, { defaultValue: String(value) })}</>;
  if (schema['x-widget'] === 'enum-multiple' && Array.isArray(value)) return <>{value.map((item) => t(`enumValues.${field}.${String(item)}`, { defaultValue: String(item) })).join(', ')}</>;
  if (schema['x-widget'] === 'datetime' && typeof value === 'string') {
    return <time dateTime={value}>{new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(value))}</time>;
  }
  if (typeof value === 'object') return <code className="json-value">{JSON.stringify(value)}</code>;
  return <>{String(value)}</>;
}
