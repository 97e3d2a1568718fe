// The URL of a board's image, video or web page (x-widget 'media-url'): typed, or — for an image or
// a video — the address of a file uploaded here (POST /board-media, src/schemas/boardMedia.ts).
// The component's type is its form's `type` field.
import { UploadOutlined } from '@ant-design/icons';
import { useCustomMutation, type HttpError } from '@refinedev/core';
import { App, Button, Form, Input, Space, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { boardMediaMaxBytes, boardMediaTypesFor, type BoardMediaType, type StoredBoardMedia } from '../../schemas/boardMedia.ts';
import { useErrorToast } from '../useErrorToast.ts';

interface MediaUrlInputProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  label: string;
  maxLength?: number;
}

export function MediaUrlInput({ id, value, onChange, label, maxLength }: MediaUrlInputProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useErrorToast();
  const types = boardMediaTypesFor(Form.useWatch('type', Form.useFormInstance()));
  const { mutate, mutation } = useCustomMutation<StoredBoardMedia, HttpError, File>();

  const upload = (file: File) => {
    const type = file.type as BoardMediaType;
    if (!types.includes(type)) return showError(t('apiErrors.BOARD_MEDIA_TYPE'));
    if (file.size > boardMediaMaxBytes(type)) return showError(t('apiErrors.BOARD_MEDIA_SIZE'));
    mutate({ url: '/board-media', method: 'post', values: file, successNotification: false, errorNotification: false }, {
      onSuccess: ({ data }) => {
        onChange?.(data.url);
        void message.success(t('boards.fileUploaded'));
      },
      onError: (error) => showError(error.message),
    });
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Input id={id} value={value} onChange={(event) => onChange?.(event.target.value)} maxLength={maxLength} aria-label={label}
        placeholder="https://…" inputMode="url" />
      {types.length > 0 && (
        <Space wrap>
          <Upload accept={types.join(',')} maxCount={1} showUploadList={false} disabled={mutation.isPending}
            beforeUpload={(file) => { upload(file); return false; }}>
            <Button icon={<UploadOutlined />} loading={mutation.isPending} data-testid="board-media-upload">{t('boards.uploadFile')}</Button>
          </Upload>
          <Typography.Text type="secondary">{t('boards.uploadLimit')}</Typography.Text>
        </Space>
      )}
    </Space>
  );
}
