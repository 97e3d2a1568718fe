// A board (SPEC §2 `/{id}`): its components on the grid, live from the server. Editors switch to
// arranging it (BoardGrid), add, change and remove components with the component model's form,
// its owner shares it (ShareDialog), and anyone may print it or copy its link ('Copied!', SPEC §8).
// When the board is gone for the reader (unshared or deleted), the page says so and leaves for the list.
import { CheckOutlined, CopyOutlined, LayoutOutlined, PlusOutlined, PrinterOutlined, ShareAltOutlined } from '@ant-design/icons';
import { useDelete, useList, useOne, useUpdate } from '@refinedev/core';
import { App, Button, Drawer, Empty, Result, Space, Spin, Typography } from 'antd';
import { Suspense, useState } from 'react';
import { lazyWithReload } from '../../pwa/chunkReload.ts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { pickLocalized, type LocalizedValue } from '../../shared/i18n/pickLocalized.ts';
import type { BoardKind } from '../../resources/boardKinds.ts';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import type { Board } from '../../schemas/board.ts';
import { useTokenClaims } from '../../session/access.ts';
import { canEditBoard, canShareBoard, type BoardGrant } from '../../resources/boardAccess.ts';
import { boundedCell } from './boardLayout.ts';
import { BoardGrid, type LayoutChange } from './BoardGrid.tsx';
import type { BoardComponent } from './renderers/rendererProps.ts';
import { ShareDialog } from './ShareDialog.tsx';
import { useReadyComponents } from './useReadyComponents.ts';

const ResourceFormPage = lazyWithReload(() => import('../resources/ResourceFormPage.tsx'));

const COPIED_SECONDS = 5;

type ComponentForm = { action: 'create' } | { action: 'edit'; component: BoardComponent };

/** A board's components, through the kind's component door. */
export function useBoardComponents(kind: BoardKind, boardId: string | undefined) {
  return useList<BoardComponent>({
    resource: kind.component.name,
    filters: [{ field: 'board_id', operator: 'eq', value: boardId }],
    pagination: { mode: 'off' },
    queryOptions: { enabled: !!boardId },
    liveMode: 'auto',
  });
}

export default function BoardPage({ kind }: { kind: BoardKind }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const { id } = useParams();
  usePageTitle(kind.titleKeys.board);
  const claims = useTokenClaims();
  const navigate = useNavigate();
  const [revoked, setRevoked] = useState(false);
  const boardCall = useOne<Board & BoardGrant & { id: number }>({
    resource: kind.board.name, id, errorNotification: false, queryOptions: { enabled: !revoked },
    // the server tells a reader who lost the board `deleted`: say so, then leave for the list
    liveMode: 'manual',
    onLiveEvent: (event) => {
      if (String((event.payload as { id?: unknown }).id) !== String(id)) return;
      if (event.type !== 'deleted') { void boardCall.query.refetch(); return; }
      setRevoked(true);
      void message.warning({ content: t('boards.noLongerShared'), duration: 8 });
      void navigate(kind.route);
    },
  });
  const componentsCall = useBoardComponents(kind, id);
  const components = componentsCall.result.data ?? [];
  const { onReadyOf } = useReadyComponents();
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<ComponentForm>();
  const [sharing, setSharing] = useState(false);
  const { mutate: update } = useUpdate();
  const { mutate: remove } = useDelete();
  const board = boardCall.result;
  const editable = canEditBoard(kind, board, claims);
  const shareable = canShareBoard(kind, board, claims);

  if (revoked) return <Result status="info" title={t('boards.noLongerShared')} extra={<Link to={kind.route}>{t('boards.backToList')}</Link>} />;
  if (boardCall.query.isError) {
    return <Result status="404" title={t('errors.entityNotFound')} extra={<Link to={kind.route}>{t('boards.backToList')}</Link>} />;
  }
  if (!board || componentsCall.query.isLoading) return <Spin className="page-spinner" tip={t('common.loading')}><div style={{ minHeight: 200 }} /></Spin>;

  const name = pickLocalized(board.name as LocalizedValue, i18n.language) || `#${board.id}`;
  const description = pickLocalized(board.description as LocalizedValue | undefined, i18n.language);
  const bottom = Math.max(0, ...components.map((component) => { const cell = boundedCell(component.layout ?? {}); return cell.y + cell.h; }));

  const saveLayout = (changes: LayoutChange[]) => {
    for (const { component, layout } of changes) {
      update({ resource: kind.component.name, id: component.id, values: { layout }, successNotification: false, errorNotification: () => ({ type: 'error', message: t('notifications.updateFailed', { name: component.name }) }) });
    }
  };
  const copyLink = async () => {
    await navigator.clipboard.writeText(window.location.href);
    void message.success({ content: t('boards.copied'), duration: COPIED_SECONDS });
  };

  return (
    <div data-testid="board-page" data-board-id={board.id}>
      <div className="board-header">
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>{name}</Typography.Title>
          {description && <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>{description}</Typography.Paragraph>}
        </div>
        <Space wrap>
          {editable && (
            <Button icon={editing ? <CheckOutlined /> : <LayoutOutlined />} type={editing ? 'primary' : 'default'} aria-pressed={editing}
              onClick={() => setEditing(!editing)} data-testid="board-edit-toggle">
              {editing ? t('boards.doneArranging') : t('boards.arrange')}
            </Button>
          )}
          {editable && editing && (
            <Button icon={<PlusOutlined />} onClick={() => setForm({ action: 'create' })} data-testid="component-add">{t('boards.addComponent')}</Button>
          )}
          {shareable && (
            <Button icon={<ShareAltOutlined />} onClick={() => setSharing(true)} data-testid="board-share">{t('boards.share.button')}</Button>
          )}
          <Link to={`${kind.route}/${board.id}/print`} className="ant-btn ant-btn-default" data-testid="board-print-link"><PrinterOutlined /> {t('boards.print')}</Link>
          <Button icon={<CopyOutlined />} onClick={() => void copyLink()} data-testid="board-copy-link">{t('boards.copyLink')}</Button>
        </Space>
      </div>
      {components.length === 0
        ? <Empty description={t('boards.noComponents')} />
        : (
          <BoardGrid components={components} editing={editable && editing} onReadyOf={onReadyOf} onLayoutSave={saveLayout}
            onEdit={(component) => setForm({ action: 'edit', component })}
            onRemove={(component) => remove({
              resource: kind.component.name, id: component.id,
              successNotification: () => ({ type: 'success', message: t('notifications.deleted', { name: component.name }) }),
            })} />
        )}
      {shareable && <ShareDialog kind={kind} resourceUuid={String(board.resource_uuid)} open={sharing} onClose={() => setSharing(false)} />}
      <Drawer open={!!form} onClose={() => setForm(undefined)} width={640} destroyOnHidden data-testid="component-drawer"
        title={form?.action === 'edit' ? t('boards.editComponent', { name: form.component.name }) : t('boards.addComponent')}>
        {form && (
          <Suspense fallback={<Spin />}>
            <ResourceFormPage resource={kind.component} action={form.action}
              embedded={form.action === 'edit'
                ? { id: String(form.component.id), record: form.component as unknown as Record<string, unknown>, onDone: () => setForm(undefined) }
                : { initialValues: { board_ids: [Number(board.id)], layout: { x: 0, y: bottom, w: 12, h: 8 } }, onDone: () => setForm(undefined) }} />
          </Suspense>
        )}
      </Drawer>
    </div>
  );
}
