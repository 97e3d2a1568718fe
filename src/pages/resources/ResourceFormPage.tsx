// The generated create/edit page of a model resource: SchemaForm inside refine's useForm. The
// browser checks the record with the model's own schema (ajv) and its record rules before
// sending; server errors land on their fields; leaving with unsaved changes asks first; messages
// are SPEC §8's. A page may add a panel beside the form (the KPI builder's live preview); an
// existing record can be duplicated or deleted (with confirmation) from here.
import { DeleteButton, useForm } from '@refinedev/antd';
import { useBack, useCan, useCreate, useGo, type HttpError, type OpenNotificationParams } from '@refinedev/core';
import { Button, Card, Col, Form, Result, Row, Space, Spin, Typography } from 'antd';
import type { ErrorObject } from 'ajv';
import type { TFunction } from 'i18next';
import { useEffect, useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import * as modelValidators from 'virtual:model-validators';
import { storableValuesOnly } from '../../schemas/validation.ts';
import type { FieldSchema } from '../../schemas/model.ts';
import { RECORD_RULES } from '../../schemas/recordRules.ts';
import type { ModelResource } from '../../resources/defineResource.ts';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import { SchemaForm } from '../../components/schema/SchemaForm.tsx';
import { cleanValues, defaultsOf } from '../../components/schema/formValues.ts';
import { recordTitle } from './recordTitle.ts';

/** ajv's first problem → a form field error in the interface language. */
function fieldErrorOf(error: ErrorObject, t: TFunction): { name: (string | number)[]; errors: string[] } {
  const path = namePath(error.instancePath.split('/').filter(Boolean).join('.'));
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  const code = ((error.parentSchema as FieldSchema | undefined)?.['x-errors'] as Record<string, string> | undefined)?.[error.keyword];
  const limit = (error.params as { limit?: number }).limit;
  if (missing) return { name: [...path, missing], errors: [code ? t(`apiErrors.${code}`) : t('form.required', { field: missing })] };
  const field = String(path[path.length - 1] ?? '');
  if (code) return { name: path, errors: [t(`apiErrors.${code}`, { limit, field })] };
  if (error.keyword === 'maximum') return { name: path, errors: [t('form.numberMax', { field, max: limit })] };
  if (error.keyword === 'minimum') return { name: path, errors: [t('form.numberMin', { field, min: limit })] };
  return { name: path, errors: [t('form.invalid', { field })] };
}

/** A field path as the API names it (`definition.colour_mapping.0.from`) → a form name path. */
const namePath = (field: string) => field.split('.').filter(Boolean).map((part) => (/^\d+$/.test(part) ? Number(part) : part));

export interface FormAsideProps {
  /** The form's current values (what would be saved). */
  values: Record<string, unknown>;
  /** The record's id when editing. */
  id?: string;
}

/** The form inside another page (a board's component drawer): no title, no route of its own. */
export interface EmbeddedForm {
  id?: string;
  /** Values a new record starts with besides the schema's defaults (the board it goes on). */
  initialValues?: Record<string, unknown>;
  /** The record as the page already holds it (not read again). */
  record?: Record<string, unknown>;
  /** Saved, deleted or cancelled. */
  onDone(): void;
}

interface ResourceFormPageProps {
  resource: ModelResource;
  action: 'create' | 'edit';
  /** A panel beside the form that follows its values (the KPI builder's preview). */
  aside?: ComponentType<FormAsideProps>;
  embedded?: EmbeddedForm;
}

export default function ResourceFormPage({ resource, action, aside: Aside, embedded }: ResourceFormPageProps) {
  const { t, i18n } = useTranslation();
  const params = useParams();
  const id = embedded ? embedded.id : params.id;
  const back = useBack();
  const schema = resource.schema;
  const modelName = t(`models.${schema.$id}.name`);
  const title = usePageTitle(embedded ? resource.titleKey : action === 'create' ? 'form.createTitle' : 'form.editTitle');
  const validate = useMemo(() => storableValuesOnly(modelValidators[schema.$id] as unknown as { (data: unknown): boolean; errors?: ErrorObject[] | null }), [schema]);
  const nameOf = (record?: Record<string, unknown>) => recordTitle(schema, record, i18n.language, modelName);
  // Once loaded, the record in the form is the user's to edit: a change of it told live (an
  // engine's, another user's) would read it again and reset every field typed meanwhile.
  const [loadedId, setLoadedId] = useState<string | number>();

  const { formProps, saveButtonProps, formLoading, form, query } = useForm({
    resource: resource.name,
    action,
    id,
    redirect: embedded ? false : 'list',
    onMutationSuccess: () => embedded?.onDone(),
    queryOptions: embedded?.record || (loadedId !== undefined && loadedId === id) ? { enabled: false } : undefined,
    warnWhenUnsavedChanges: true,
    successNotification: (data, values) => ({
      type: 'success',
      message: t(action === 'create' ? 'notifications.created' : 'notifications.updated', { name: nameOf((data?.data ?? values) as Record<string, unknown>) }),
    }),
    errorNotification: (error, values): OpenNotificationParams => ({
      type: 'error',
      // the record by its name (as it is being saved, else as it was loaded), never just its model
      message: action === 'create' ? (error?.message ?? t('errors.generic')) : t('notifications.updateFailed', { name: nameOf({ ...query?.data?.data, ...(values as Record<string, unknown>) }) }),
      description: action === 'create' ? undefined : error?.message,
    }),
    onMutationError: (error: HttpError) => {
      const errors = (error.errors ?? {}) as Record<string, string>;
      form.setFields(Object.entries(errors).map(([field, message]) => ({ name: namePath(field), errors: [String(message)] })));
    },
  });
  const loaded = query?.data !== undefined;
  useEffect(() => { if (loaded) setLoadedId(id); }, [loaded, id]);
  // an edited record is typed into only once it is in the form: refine puts it there in an effect
  // after the render that has it, and what was typed in between would be overwritten
  const inForm = action === 'create' || !!embedded?.record || loadedId === id;
  // only a page with a panel beside its form follows every value (a whole-form watch re-renders the page on each keystroke)
  const values = Form.useWatch(Aside ? [] : ['__no_aside__'], form) as Record<string, unknown> | undefined;
  const { data: canCreate } = useCan({ resource: resource.name, action: 'create' });
  const { data: canDelete } = useCan({ resource: resource.name, action: 'delete' });
  const { mutate: create, mutation: creating } = useCreate();
  const go = useGo();

  /** A copy of the record as it stands in the form, saved at once and opened for editing. */
  const duplicate = () => {
    const record = cleanValues(schema as unknown as FieldSchema, form.getFieldsValue(true));
    const field = schema['x-title'];
    const title = field ? record[field] : undefined;
    const copy = title && typeof title === 'object'
      ? { ...record, [field!]: Object.fromEntries(Object.entries(title).map(([language, text]) => [language, t('form.copyOf', { name: text, lng: language })])) }
      : record;
    create({
      resource: resource.name,
      values: copy,
      successNotification: () => ({ type: 'success', message: t('notifications.created', { name: nameOf(copy) }) }),
    }, { onSuccess: (answer) => go({ to: `${resource.route}/edit/${answer.data.id}` }) });
  };

  const onFinish = (values: Record<string, unknown>) => {
    // a new record's values the form does not show (the board it goes on) go with it
    const record = cleanValues(schema as unknown as FieldSchema, action === 'create' ? { ...embedded?.initialValues, ...values } : values);
    const copy = structuredClone(record);
    if (!validate(copy)) {
      form.setFields((validate.errors ?? []).map((error) => fieldErrorOf(error, t)));
      return;
    }
    const problem = RECORD_RULES[schema.$id]?.(record);
    if (problem) {
      form.setFields([{ name: namePath(problem.field), errors: [t(`apiErrors.${problem.code}`)] }]);
      form.scrollToField(namePath(problem.field));
      return;
    }
    return formProps.onFinish?.(record);
  };

  // Another tenant's record, or one deleted meanwhile: said, with no form to save.
  if (action === 'edit' && query?.isError) {
    return (
      <div data-testid={`form-${schema.$id}`}>
        <Result status="404" title={t('errors.entityNotFound')} extra={embedded ? undefined : <Link to={resource.route}>{t('form.backToList')}</Link>} />
      </div>
    );
  }

  const editor = (
    <Card>
      <Spin spinning={formLoading} tip={t('common.loading')}>
        {/* nothing typed while the record loads or saves: the loaded record would overwrite it */}
        <Form {...formProps} disabled={formLoading || !inForm} initialValues={action === 'create' ? { ...defaultsOf(schema as unknown as FieldSchema), ...embedded?.initialValues } : embedded?.record ?? formProps.initialValues}
          onFinish={onFinish} layout="vertical" scrollToFirstError>
          <SchemaForm model={schema} />
          <Space wrap>
            <Button {...saveButtonProps} type="primary" data-testid="form-save">{t('form.save')}</Button>
            <Button disabled={false} onClick={() => (embedded ? embedded.onDone() : back())}>{t('form.cancel')}</Button>
            {action === 'edit' && !embedded && canCreate?.can && (
              <Button onClick={duplicate} loading={creating.isPending} data-testid="form-duplicate">{t('form.duplicate')}</Button>
            )}
            {action === 'edit' && canDelete?.can && (
              <DeleteButton resource={resource.name} recordItemId={id} data-testid="form-delete" onSuccess={() => (embedded ? embedded.onDone() : go({ to: resource.route }))}
                confirmTitle={t('table.confirmDelete')} confirmOkText={t('buttons.delete')} confirmCancelText={t('form.cancel')}
                successNotification={() => ({ type: 'success', message: t('notifications.deleted', { name: modelName }) })} />
            )}
          </Space>
        </Form>
      </Spin>
    </Card>
  );

  return (
    <div data-testid={`form-${schema.$id}`}>
      {!embedded && <Typography.Title level={2}>{`${title}: ${modelName}`}</Typography.Title>}
      {Aside ? (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={10}>{editor}</Col>
          <Col xs={24} xl={14}><div className="form-aside"><Aside values={values ?? {}} id={id} /></div></Col>
        </Row>
      ) : editor}
    </div>
  );
}
