// /studio/regions, /studio/zones, /studio/devices (module factory-studio, SPEC §2): the kind's
// entities in the selected region, listed and on the map; one of them (or a new one) edited at a
// time with the entity model's own form fields and its geometry drawn on the map. The form opens
// at the top of the side column, above the list, and takes focus; the map goes to what is opened.
import { UploadOutlined } from '@ant-design/icons';
import { useCustomMutation, useDataProvider, useInvalidate, type HttpError } from '@refinedev/core';
import { App, Button, Card, Form, Popconfirm, Radio, Space, Statistic, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MapLayerMouseEvent } from 'react-map-gl/maplibre';
import { PickerScopeContext, type PickerScope } from '../../components/schema/pickerScope.ts';
import { SchemaFields } from '../../components/schema/SchemaForm.tsx';
import { cleanValues } from '../../components/schema/formValues.ts';
import { FocusPanel } from '../../components/layout/FocusPanel.tsx';
import { useShellData } from '../../components/layout/shellData.ts';
import { AREA_LAYER, EntityLayers, POINT_LAYER } from '../../components/map/EntityLayers.tsx';
import { FacilityMap } from '../../components/map/core/FacilityMap.tsx';
import { GeometryEditor } from '../../components/map/GeometryEditor.tsx';
import { areaOf, shapeOf, type DrawShape } from '../../components/map/core/geometryShapes.ts';
import { cameraTargetOf, type CameraTarget } from '../../components/map/core/cameraTarget.ts';
import { MapFlight } from '../../components/map/core/MapFlight.tsx';
import { DEFAULT_CENTER } from '../../schemas/mapConfig.ts';
import { OverlayLayer } from '../../components/map/OverlayLayer.tsx';
import { RegionExtentLayer, regionExtentOf } from '../../components/map/RegionExtentLayer.tsx';
import { entityIdOf } from '../../components/map/core/mapFeatures.ts';
import { useMapFeatures } from '../../components/map/core/useMapFeatures.ts';
import { pickLocalized } from '../../shared/i18n/pickLocalized.ts';
import type { EntityJson } from '../../schemas/entityJson.ts';
import { graphqlMeta } from '../../providers/dataProvider.ts';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import { entitySchema } from '../../schemas/entity.ts';
import type { Geometry } from '../../schemas/geometry.ts';
import { graphqlDocuments } from '../../schemas/graphqlOperations.ts';
import type { ModelSchema } from '../../schemas/model.ts';
import type { Overlay } from '../../schemas/overlay.ts';
import { storedRegion } from '../dashboard/regionCookie.ts';
import { AccessTokenField } from './AccessTokenField.tsx';
import { DeviceImport } from './DeviceImport.tsx';
import { StudioEntityList } from './StudioEntityList.tsx';
import { GpsField } from './GpsField.tsx';
import { OverlayEditor } from './OverlayEditor.tsx';
import { TelemetryUpload } from './TelemetryUpload.tsx';
import { formSchemaOf, formValuesOf, STUDIO_KINDS, type StudioKind } from './studioKinds.ts';
import '../dashboard/dashboard.css';
import './studio.css';
import { useErrorToast } from '../../components/useErrorToast.ts';

interface Editing {
  id?: number;
  name?: Record<string, string>;
  geometry: Geometry | null;
  /** The entity's attributes, and whether the page changed them (the area recalculated, the overlay placed). */
  attributes: Record<string, unknown>;
  attributesChanged?: boolean;
}

const model = entitySchema as unknown as ModelSchema;

/** Where a region's first overlay goes: its centre, or the map's default one. */
const centreOf = (geometry: Geometry | null): [number, number] =>
  geometry?.type === 'Point' ? geometry.coordinates as [number, number] : [DEFAULT_CENTER.longitude, DEFAULT_CENTER.latitude];

const withOverlay = (attributes: Record<string, unknown>, overlay: Overlay | undefined) => {
  const { overlay: _previous, ...rest } = attributes;
  return overlay ? { ...rest, overlay } : rest;
};
const documents = graphqlDocuments(model);
type OperationAnswer = Record<string, { id: string; deleted?: boolean }>;

export default function StudioPage({ kind }: { kind: StudioKind }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const showError = useErrorToast();
  const spec = STUDIO_KINDS[kind];
  usePageTitle(spec.titleKey);
  const { entityTypes } = useShellData();
  const types = useMemo(() => spec.types(entityTypes), [spec, entityTypes]);
  const typeIds = useMemo(() => types.map((type) => type.id), [types]);
  // the type and parent pickers offer only what this kind may name
  const pickerScopes = useMemo((): Record<string, PickerScope> => ({
    entity_type_id: { ids: typeIds },
    ...(spec.parentTypes ? { parent_id: { filters: [{ field: 'types', operator: 'in', value: spec.parentTypes(entityTypes).map((type) => type.id) }] } } : {}),
  }), [spec, entityTypes, typeIds]);
  const region = storedRegion();
  const dataProvider = useDataProvider();
  const invalidate = useInvalidate();
  const refreshList = () => void invalidate({ resource: 'entities', invalidates: ['list'] });
  const features = useMapFeatures(kind === 'regions' ? undefined : region, undefined);
  const [editing, setEditing] = useState<Editing>();
  /** How many times a form was opened: each opening moves focus into it (and the map to it). */
  const [openings, setOpenings] = useState(0);
  const [flightTarget, setFlightTarget] = useState<CameraTarget>();
  const [drawing, setDrawing] = useState<DrawShape>();
  const [uploading, setUploading] = useState(false);
  const [importing, setImporting] = useState(false);
  const [form] = Form.useForm();
  // the entity model's create or update, and its delete (each answer is keyed by its operation's name)
  const saveCall = useCustomMutation<OperationAnswer>();
  const deleteCall = useCustomMutation<OperationAnswer>();
  const runOperation = (call: typeof saveCall, document: string, variables: Record<string, unknown>, onSuccess: (answer: OperationAnswer[string]) => void) => call.mutate(
    { url: '', method: 'post', values: {}, meta: graphqlMeta(document, variables), successNotification: false, errorNotification: false },
    { onSuccess: ({ data }) => onSuccess(Object.values(data)[0]), onError: (error: HttpError) => showError(error.message) },
  );

  const formSchema = useMemo(() => formSchemaOf(model, spec.fields), [spec]);

  const open = (entity?: EntityJson) => {
    form.resetFields();
    if (entity) form.setFieldsValue(formValuesOf(entity, spec.fields));
    else form.setFieldsValue({ parent_id: kind === 'regions' ? null : region ?? null, entity_type_id: types.length === 1 || kind !== 'devices' ? types[0]?.id : undefined });
    setEditing({ id: entity?.id, name: entity?.name, geometry: entity?.geom ?? null, attributes: entity?.attributes ?? {} });
    setDrawing(undefined);
    setOpenings((count) => count + 1);
    setFlightTarget(cameraTargetOf(entity));
  };
  const close = () => {
    setEditing(undefined);
    setDrawing(undefined);
  };

  const save = async () => {
    if (!editing) return;
    const values = await form.validateFields().catch(() => undefined); // the form shows what is missing
    if (!values) return;
    if (spec.geometryRequired && !editing.geometry) {
      showError(t(spec.geometryRequired));
      return;
    }
    const { attributes: formAttributes, ...fields } = cleanValues(formSchema, values);
    // the form's declared attributes over the stored ones (the rest of them kept as they are)
    const attributes = formAttributes || editing.attributesChanged ? { attributes: { ...editing.attributes, ...formAttributes as object } } : {};
    const record = { ...fields, entity_type_id: values.entity_type_id ?? types[0]?.id, geom: editing.geometry, ...attributes };
    const variables = editing.id === undefined ? record : { ...record, id: editing.id };
    runOperation(saveCall, editing.id === undefined ? documents.create(variables) : documents.update(variables), variables, (saved) => {
      const name = pickLocalized(values.name as Record<string, string>, i18n.language);
      void message.success(t(editing.id === undefined ? 'notifications.created' : 'notifications.updated', { name }));
      setEditing({ ...editing, id: Number(saved.id), name: values.name as Record<string, string>, attributes: record.attributes ?? editing.attributes, attributesChanged: false });
      refreshList();
      features.reload();
    });
  };

  const remove = () => {
    if (editing?.id === undefined) return;
    runOperation(deleteCall, documents.delete({ id: editing.id }), { id: editing.id }, (answer) => {
      if (!answer.deleted) return showError(t('apiErrors.ENTITY_IN_USE'));
      void message.success(t('notifications.deleted', { name: t('models.entity.name') }));
      setEditing(undefined);
      refreshList();
      features.reload();
    });
  };

  const onMapClick = (event: MapLayerMouseEvent) => {
    if (drawing || editing) return; // drawing, or one entity at a time
    const id = entityIdOf(event);
    if (id === undefined) return;
    void dataProvider().getOne<EntityJson>({ resource: 'entities', id }).then(({ data }) => {
      if (typeIds.includes(data.entity_type_id)) open(data);
    }, () => showError(t('errors.generic')));
  };

  const area = areaOf(editing?.geometry);
  const overlay = editing?.attributes.overlay as Overlay | undefined;
  // the form's size and colour as they are typed, for the extent drawn
  const sizeAndColour = Form.useWatch('attributes', form) as Record<string, unknown> | undefined;
  const editorTitle = editing?.id === undefined ? t('form.createTitle') : pickLocalized(editing.name ?? {}, i18n.language);
  return (
    <div className="studio" data-testid={`page-studio-${kind}`}>
      <aside className="studio-side" aria-label={t(spec.titleKey)}>
        {editing && (
          <FocusPanel className="studio-editor" label={editorTitle} focusKey={openings} onClose={close}>
            <Card size="small" data-testid="studio-editor" title={editorTitle}>
              <Form form={form} layout="vertical">
                <PickerScopeContext.Provider value={pickerScopes}>
                  <SchemaFields model={model} schema={formSchema} name={[]} fullName={[]} />
                </PickerScopeContext.Provider>
              </Form>
              {kind === 'devices' && editing.id !== undefined && (
                <>
                  <AccessTokenField id={editing.id} />
                  <Button icon={<UploadOutlined />} onClick={() => setUploading(true)} style={{ marginBottom: 12 }}>{t('upload.open')}</Button>
                  {uploading && <TelemetryUpload id={editing.id} onClose={() => setUploading(false)} />}
                </>
              )}
              <Typography.Text strong>{t('studio.position')}</Typography.Text>
              <div>
                <Radio.Group
                  aria-label={t('studio.position')}
                  value={drawing ?? shapeOf(editing.geometry) ?? 'none'}
                  onChange={(event) => {
                    const shape = event.target.value as DrawShape | 'none';
                    if (shape === 'none') {
                      setDrawing(undefined);
                      setEditing({ ...editing, geometry: null });
                    } else setDrawing(shape);
                  }}
                  optionType="button"
                  options={[
                    ...spec.shapes.map((shape) => ({ value: shape, label: t(`studio.shape.${shape}`) })),
                    ...(spec.geometryRequired ? [] : [{ value: 'none', label: t('studio.shape.none') }]),
                  ]}
                />
              </div>
              {drawing && <Typography.Paragraph type="secondary">{t(`studio.drawHint.${drawing}`)}</Typography.Paragraph>}
              {spec.shapes.includes('point') && (!editing.geometry || editing.geometry.type === 'Point') && (
                <GpsField geometry={editing.geometry} onChange={(geometry) => setEditing({ ...editing, geometry })} />
              )}
              {spec.overlay && (
                <OverlayEditor regionId={editing.id} centre={centreOf(editing.geometry)} overlay={overlay}
                  onChange={(next) => setEditing({ ...editing, attributes: withOverlay(editing.attributes, next), attributesChanged: true })} />
              )}
              {kind === 'devices' && (
                <Space align="end">
                  <Statistic title={t('studio.area')} value={area} suffix="m²" data-testid="studio-area" />
                  <Button onClick={() => setEditing({ ...editing, attributes: { ...editing.attributes, area }, attributesChanged: true })} disabled={!area}
                    title={t('studio.recalculateHint')}>{t('studio.recalculate')}</Button>
                </Space>
              )}
              <Space style={{ marginTop: 12 }}>
                <Button type="primary" loading={saveCall.mutation.isPending} onClick={() => void save()} data-testid="studio-save">{t('buttons.save')}</Button>
                <Button onClick={close}>{t('buttons.cancel')}</Button>
                {editing.id !== undefined && (
                  <Popconfirm title={t('buttons.confirm')} onConfirm={remove}><Button danger>{t('buttons.delete')}</Button></Popconfirm>
                )}
              </Space>
            </Card>
          </FocusPanel>
        )}
        <Card size="small" title={t(spec.titleKey)} extra={(
          <Space>
            {kind === 'devices' && <Button onClick={() => setImporting(true)}>{t('deviceImport.open')}</Button>}
            <Button type="primary" onClick={() => open()} data-testid="studio-create">{t('buttons.create')}</Button>
          </Space>
        )}>
          <StudioEntityList typeIds={typeIds} region={kind === 'regions' ? undefined : region} openId={editing?.id} onOpen={open} />
        </Card>
        {importing && (
          <DeviceImport deviceTypes={types} parentId={region}
            onDone={() => { refreshList(); features.reload(); }} onClose={() => setImporting(false)} />
        )}
      </aside>
      <div className="studio-map">
        <FacilityMap interactiveLayerIds={[POINT_LAYER, AREA_LAYER]} onClick={onMapClick}>
          <MapFlight flight={editing?.id === undefined ? undefined : `${editing.id}#${openings}`} target={flightTarget} />
          <EntityLayers rows={editing?.id === undefined ? features.rows : features.rows.filter((row) => row[0] !== editing.id)} />
          {spec.overlay && editing && <RegionExtentLayer extent={regionExtentOf({ geom: editing.geometry, attributes: { ...editing.attributes, ...sizeAndColour } })} />}
          {spec.overlay && (
            <OverlayLayer overlay={overlay}
              onMove={(placement) => overlay && setEditing((current) => current && { ...current, attributes: withOverlay(current.attributes, { ...overlay, ...placement }), attributesChanged: true })} />
          )}
          {editing && (
            <GeometryEditor geometry={editing.geometry} drawing={drawing}
              onChange={(geometry) => setEditing((current) => current && { ...current, geometry })}
              onDrawn={() => setDrawing(undefined)} />
          )}
        </FacilityMap>
      </div>
    </div>
  );
}
