// Renders a model's fields as antd Form.Items inside refine's useForm form: ordered, grouped,
// conditional (if/then), nested objects as sections, arrays of objects as add/remove/reorder
// lists with their maximum, and fields guarded by a permission left out (SPEC §6).
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Form, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { cronProblem } from '../../schemas/cron.ts';
import { orderedFields, type FieldSchema, type ModelSchema } from '../../schemas/model.ts';
import { useFieldLabel } from './useFieldLabel.ts';
import { SUPPORTED_LANGUAGES, LANGUAGE_NAMES } from '../../shared/i18n/languages.ts';
import { permissionHeldByName } from '../../schemas/modules.ts';
import { useTokenClaims } from '../../session/access.ts';
import { effectiveSchema } from './conditions.ts';
import { defaultsOf } from './formValues.ts';
import './schemaForm.css';
import { FieldWidget, valueAdapters, widgetOf } from './FieldWidget.tsx';
import { useErrorToast } from '../useErrorToast.ts';

type NamePath = (string | number)[];

interface FieldsProps {
  model: ModelSchema;
  schema: FieldSchema;
  /** Name relative to the enclosing Form.List (or the form). */
  name: NamePath;
  /** Name from the form's root (for watching values). */
  fullName: NamePath;
}

/** antd rules from the field's schema, with the messages of SPEC §5. */
export function rulesOf(schema: FieldSchema, label: string, required: boolean, t: TFunction): Rule[] {
  const rules: Rule[] = [];
  const widget = widgetOf(schema);
  if (required && widget !== 'switch') rules.push({ required: true, message: t('form.required', { field: label }) });
  if (widget === 'number') {
    rules.push({
      validator: async (_rule, value: unknown) => {
        if (value === undefined || value === null || value === '') return;
        if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(t('form.invalidNumber'));
        if (schema.maximum !== undefined && value > schema.maximum) throw new Error(t('form.numberMax', { field: label, max: schema.maximum }));
        if (schema.minimum !== undefined && value < schema.minimum) throw new Error(t('form.numberMin', { field: label, min: schema.minimum }));
      },
    });
  }
  if (widget === 'cron') {
    rules.push({ validator: async (_rule, value: string | undefined) => { if (value && cronProblem(value)) throw new Error(t('apiErrors.CRON_INVALID')); } });
  }
  if (widget === 'json') {
    rules.push({ validator: async (_rule, value: unknown) => { if (typeof value === 'string' && value.trim()) throw new Error(t('form.invalidJson')); } });
  }
  if ((widget === 'text' || widget === 'textarea') && schema.minLength) {
    rules.push({ whitespace: true, message: t('form.required', { field: label }) });
  }
  return rules;
}

function MultilingualField({ name, label, required }: { name: NamePath; label: string; required: boolean }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={label} required={required}>
      <div className="multilingual-field">
        {SUPPORTED_LANGUAGES.map((language, index) => (
          <Form.Item key={language} name={[...name, language]} noStyle={false} style={{ marginBottom: 4 }}
            rules={required && index === 0 ? [{ required: true, message: t('form.required', { field: `${label} (${LANGUAGE_NAMES[language]})` }) }] : []}>
            <InputWithAddon language={language} label={label} />
          </Form.Item>
        ))}
      </div>
    </Form.Item>
  );
}

function InputWithAddon({ language, label, ...props }: { language: string; label: string; value?: string; onChange?: (value: string) => void; id?: string }) {
  return (
    <Space.Compact style={{ width: '100%' }}>
      <span className="language-addon" aria-hidden>{language.toUpperCase()}</span>
      <FieldWidget schema={{ type: 'string', maxLength: 500 }} name={language} label={`${label} (${LANGUAGE_NAMES[language as keyof typeof LANGUAGE_NAMES]})`} {...props} />
    </Space.Compact>
  );
}

function ObjectList({ model, schema, name, fullName, label }: FieldsProps & { label: string }) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const max = schema.maxItems ?? Infinity;
  const tooMany = schema['x-errors']?.maxItems;
  return (
    <Form.Item label={label}>
      <Form.List name={name}>
        {(items, { add, remove, move }) => (
          <div className="object-list" data-testid={`list-${fullName.join('.')}`}>
            {items.map((item, index) => (
              <Card key={item.key} size="small" className="object-list-item" data-testid={`${fullName.join('.')}-item`}
                title={`${label} ${index + 1}`}
                extra={(
                  <Space>
                    <Button size="small" icon={<ArrowUpOutlined />} disabled={index === 0} onClick={() => move(index, index - 1)} aria-label={t('form.moveUp')} />
                    <Button size="small" icon={<ArrowDownOutlined />} disabled={index === items.length - 1} onClick={() => move(index, index + 1)} aria-label={t('form.moveDown')} />
                    <Button size="small" danger icon={<DeleteOutlined />} onClick={() => remove(index)} aria-label={t('form.remove')} />
                  </Space>
                )}>
                <SchemaFields model={model} schema={schema.items!} name={[item.name]} fullName={[...fullName, item.name]} />
              </Card>
            ))}
            <Button type="dashed" icon={<PlusOutlined />} data-testid={`add-${fullName.join('.')}`}
              onClick={() => {
                if (items.length >= max) {
                  showError(tooMany ? t(`apiErrors.${tooMany}`, { limit: max }) : t('form.maxItems', { max }));
                  return;
                }
                add(defaultsOf(schema.items!));
              }}>
              {t('form.add', { field: label })}
            </Button>
          </div>
        )}
      </Form.List>
    </Form.Item>
  );
}

/** The fields of one object schema. */
export function SchemaFields({ model, schema, name, fullName }: FieldsProps) {
  const { t } = useTranslation();
  const labelOf = useFieldLabel();
  const form = Form.useFormInstance();
  const value = Form.useWatch((values: Record<string, any>) => fullName.reduce((node, key) => node?.[key], values), form) as Record<string, unknown> | undefined;
  const claims = useTokenClaims();
  const { properties, required, visible } = effectiveSchema(schema, value);
  return (
    <>
      {orderedFields(properties).filter((field) => visible.has(field)).map((field) => {
        const fieldSchema = properties[field];
        if (fieldSchema.readOnly || fieldSchema['x-form'] === false) return null;
        if (fieldSchema['x-permission'] && !permissionHeldByName(claims.module_permissions, fieldSchema['x-permission'])) return null;
        const label = labelOf(model, field, fieldSchema);
        const isRequired = required.has(field);
        const widget = widgetOf(fieldSchema);
        if (widget === 'multilingual') return <MultilingualField key={field} name={[...name, field]} label={label} required={isRequired} />;
        if (fieldSchema.type === 'array' && fieldSchema.items?.properties) {
          return <ObjectList key={field} model={model} schema={fieldSchema} name={[...name, field]} fullName={[...fullName, field]} label={label} />;
        }
        if (fieldSchema.properties && !fieldSchema['x-widget']) {
          const section = fieldSchema['x-group'] ? t(`models.${model.$id}.groups.${fieldSchema['x-group']}`) : label;
          return (
            <fieldset key={field} className="schema-section" data-testid={`section-${field}`}>
              <legend>{section}</legend>
              <SchemaFields model={model} schema={fieldSchema} name={[...name, field]} fullName={[...fullName, field]} />
            </fieldset>
          );
        }
        const claimed = fieldSchema['x-value-claim'] ? claims[fieldSchema['x-value-claim']] : undefined;
        const disabledValues = [
          ...Object.entries(fieldSchema['x-value-permissions'] ?? {}).filter(([, permission]) => !permissionHeldByName(claims.module_permissions, permission)).map(([option]) => option),
          ...(claimed ? (fieldSchema.enum ?? []).filter((option) => !claimed.includes(String(option))).map(String) : []),
        ];
        return (
          <Form.Item key={field} name={[...name, field]} label={label} rules={rulesOf(fieldSchema, label, isRequired, t)}
            {...valueAdapters(widget)}>
            <FieldWidget schema={fieldSchema} name={field} label={label} disabledValues={disabledValues} record={value} />
          </Form.Item>
        );
      })}
    </>
  );
}

/** The whole model: its top-level fields. */
export function SchemaForm({ model }: { model: ModelSchema }) {
  return <SchemaFields model={model} schema={model as unknown as FieldSchema} name={[]} fullName={[]} />;
}
