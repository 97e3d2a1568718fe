// A region's image overlay in the studio (SPEC §5: one file): upload it, place it by its corners on
// the map, scale it, lock it. The image is stored at once; its placement is saved with the region.
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useCustomMutation, type HttpError } from '@refinedev/core';
import { App, Button, Card, InputNumber, Slider, Space, Switch, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { cornersAround, OVERLAY_IMAGE_MAX_BYTES, OVERLAY_IMAGE_TYPES, overlayImagePath, overlaySchema, type Overlay } from '../../schemas/overlay.ts';
import { useErrorToast } from '../../components/useErrorToast.ts';

interface OverlayEditorProps {
  regionId: number | undefined;
  /** Where a first image is placed: the region's centre. */
  centre: [number, number];
  overlay: Overlay | undefined;
  onChange(overlay: Overlay | undefined): void;
}

const { minimum: MIN_SCALE, maximum: MAX_SCALE } = overlaySchema.properties.scale;

async function aspectOf(file: File): Promise<number> {
  const bitmap = await createImageBitmap(file);
  const aspect = bitmap.width / bitmap.height;
  bitmap.close();
  return aspect;
}

export function OverlayEditor({ regionId, centre, overlay, onChange }: OverlayEditorProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useErrorToast();
  // the image's PUT (the file) and DELETE
  const imageCall = useCustomMutation<{ url: string }, HttpError, File | undefined>();
  const busy = imageCall.mutation.isPending;
  if (regionId === undefined) return <Typography.Paragraph type="secondary">{t('overlay.saveFirst')}</Typography.Paragraph>;

  const send = (method: 'put' | 'delete', file: File | undefined, onSuccess: (answer: { url: string }) => void) => imageCall.mutate(
    { url: overlayImagePath(regionId), method, values: file, successNotification: false, errorNotification: false },
    { onSuccess: ({ data }) => onSuccess(data), onError: (error) => showError(error.message) },
  );

  const upload = async (file: File) => {
    if (!(OVERLAY_IMAGE_TYPES as readonly string[]).includes(file.type)) return showError(t('apiErrors.OVERLAY_IMAGE_TYPE'));
    if (file.size > OVERLAY_IMAGE_MAX_BYTES) return showError(t('apiErrors.OVERLAY_IMAGE_SIZE'));
    // a first image is placed around the centre in its own proportions (a file that is no image has none)
    const coordinates = overlay?.coordinates ?? await aspectOf(file).then((aspect) => cornersAround(centre, aspect), () => undefined);
    if (!coordinates) return showError(t('apiErrors.OVERLAY_IMAGE_TYPE'));
    send('put', file, (stored) => {
      onChange({ scale: 1, locked: false, ...overlay, url: stored.url, coordinates });
      void message.success(t('overlay.uploaded'));
    });
  };

  const remove = () => send('delete', undefined, () => onChange(undefined));

  const locked = !!overlay?.locked;
  const scale = overlay?.scale ?? 1;
  return (
    <Card size="small" type="inner" title={t('overlay.title')} data-testid="overlay-editor" style={{ marginBottom: 12 }}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Upload accept={OVERLAY_IMAGE_TYPES.join(',')} maxCount={1} showUploadList={false} disabled={busy || locked}
            beforeUpload={(file) => { void upload(file); return false; }}>
            <Button icon={<UploadOutlined />} loading={busy} disabled={locked}>{t(overlay ? 'overlay.replace' : 'overlay.upload')}</Button>
          </Upload>
          {overlay && <Button icon={<DeleteOutlined />} danger onClick={remove} disabled={busy || locked}>{t('overlay.remove')}</Button>}
        </Space>
        <Typography.Text type="secondary">{t('overlay.limit')}</Typography.Text>
        {overlay && (
          <>
            <Typography.Text>{t(locked ? 'overlay.lockedHint' : 'overlay.cornerHint')}</Typography.Text>
            <Space align="center" wrap>
              <Typography.Text id="overlay-scale-label">{t('overlay.scale')}</Typography.Text>
              <Slider style={{ width: 140 }} min={MIN_SCALE} max={MAX_SCALE} step={0.05} value={scale} disabled={locked}
                onChange={(value) => onChange({ ...overlay, scale: value })} ariaLabelledByForHandle="overlay-scale-label" />
              <InputNumber min={MIN_SCALE} max={MAX_SCALE} step={0.05} value={scale} disabled={locked} aria-labelledby="overlay-scale-label"
                data-testid="overlay-scale" onChange={(value) => typeof value === 'number' && onChange({ ...overlay, scale: value })} />
            </Space>
            <Space align="center">
              <Switch checked={locked} onChange={(checked) => onChange({ ...overlay, locked: checked })} aria-labelledby="overlay-lock-label" data-testid="overlay-lock" />
              <Typography.Text id="overlay-lock-label">{t('overlay.lock')}</Typography.Text>
            </Space>
          </>
        )}
      </Space>
    </Card>
  );
}
