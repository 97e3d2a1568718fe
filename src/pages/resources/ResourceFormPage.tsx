// The generated create/edit page of a model resource: SchemaForm inside refine's useForm. The
// browser checks the record with the model's own schema (ajv) before sending; server errors
// land on their fields; leaving with unsaved changes asks first; messages are SPEC §8's.
import { useForm } from '@refinedev/antd';
import { useBack, type HttpError } from '@refinedev/core';
import { Button, Card, Form, Result, Space, Spin, Typography } from 'antd';
import type { ErrorObject } from 'ajv';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import * as modelValidators from 'virtual:model-validators';
import { finiteNumbersOnly } from '../../schemas/validation.ts';
import type { FieldSchema } from '../../schemas/model.ts';
import type { ModelResource } from '../../resources/defineResource.ts';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import { SchemaForm } from '../../components/schema/SchemaForm.tsx';
import { cleanValues, defaultsOf } from '../../components/schema/formValues.ts';
import { recordTitle } from './recordTitle.ts';

/** ajv's first problem → a form field error in the interface language. */
function fieldErrorOf(error: ErrorObject, t: TFunction): { name: (string | number)[]; errors: string[] } {
  const path = error.instancePath.split('/').filter(Boolean).map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  if (missing) return { name: [...path, missing], errors: [t('form.required', { field: missing })] };
  const code = ((error.parentSchema as FieldSchema | undefined)?.['x-errors'] as Record<string, string> | undefined)?.[error.keyword];
  const limit = (error.params as { limit?: number }).limit;
  const field = String(path[path.length - 1] ?? '');
  if (code) return { name: path, errors: [t(`apiErrors.${code}`, { limit, field })] };
  if (error.keyword === 'maximum') return { name: path, errors: [t('form.numberMax', { field, max: limit })] };
  if (error.keyword === 'minimum') return { name: path, errors: [t('form.numberMin', { field, min: limit })] };
  return { name: path, errors: [t('form.invalid', { field })] };
}

export default function ResourceFormPage({ resource, action }: { resource: ModelResource; action: 'create' | 'edit' }) {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const back = useBack();
  const schema = resource.schema;
  const modelName = t(`models.${schema.$id}.name`);
  const title = usePageTitle(action === 'create' ? 'form.createTitle' : 'form.editTitle');
  const validate = useMemo(() => finiteNumbersOnly(modelValidators[schema.$id] as unknown as { (data: unknown): boolean; errors?: ErrorObject[] | null }), [schema]);
  const nameOf = (record?: Record<string, unknown>) => recordTitle(schema, record, i18n.language, modelName);

  const { formProps, saveButtonProps, formLoading, form, query } = useForm({
    resource: resource.name,
    action,
    id,
    redirect: 'list',
    warnWhenUnsavedChanges: true,
    successNotification: (data, values) => ({
      type: 'success',
      message: t(action === 'create' ? 'notifications.created' : 'notifications.updated', { name: nameOf((data?.data ?? values) as Record<string, unknown>) }),
    }),
    errorNotification: (error, values) => ({
      type: 'error',
      message: action === 'create' ? (error?.message ?? t('errors.generic')) : t('notifications.updateFailed', { name: nameOf(values as Record<string, unknown>) }),
      description: action === 'create' ? undefined : error?.message,
    }),
    onMutationError: (error: HttpError) => {
      const errors = (error.errors ?? {}) as Record<string, string>;
      form.setFields(Object.entries(errors).map(([field, message]) => ({ name: field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), errors: [String(message)] })));
    },
  });

  const onFinish = (values: Record<string, unknown>) => {
    const record = cleanValues(schema as unknown as FieldSchema, values);
    const copy = structuredClone(record);
    if (!validate(copy)) {
      form.setFields((validate.errors ?? []).map((error) => fieldErrorOf(error, t)));
      return;
    }
    return formProps.onFinish?.(record);
  };

  // Another tenant's record, or one deleted meanwhile: said, with no form to save.
  if (action === 'edit' && query?.isError) {
    return (
      <div data-testid={`form-${schema.$id}`}>
        <Result status="404" title={t('errors.entityNotFound')} extra={<Link to={resource.route}>{t('form.backToList')}</Link>} />
      </div>
    );
  }

  return (
    <div data-testid={`form-${schema.$id}`}>
      <Typography.Title level={2}>{`${title}: ${modelName}`}</Typography.Title>
      <Card>
        <Spin spinning={formLoading} tip={t('common.loading')}>
          <Form {...formProps} initialValues={action === 'create' ? defaultsOf(schema as unknown as FieldSchema) : formProps.initialValues}
            onFinish={onFinish} layout="vertical" scrollToFirstError>
            <SchemaForm model={schema} />
            <Space>
              <Button {...saveButtonProps} type="primary" data-testid="form-save">{t('form.save')}</Button>
              <Button onClick={() => back()}>{t('form.cancel')}</Button>
            </Space>
          </Form>
        </Spin>
      </Card>
    </div>
  );
}
