// /dashboard/tree-view/{id} (module factory-dashboard, SPEC §2): the entity's subtree as a tree,
// a level at a time; choosing a node selects that entity on the dashboard. An unknown id, or
// another tenant's, says so instead of showing an empty page.
import { Button, Card, Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiHttpError } from '../../providers/httpError.ts';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import { addressOf } from './addressSelection.ts';
import { EntityTree } from './EntityTree.tsx';
import { useTreeLevel } from './entityTreeLevel.ts';

const ID = /^\d{1,10}$/;

export default function TreeViewPage() {
  const { t } = useTranslation();
  const title = usePageTitle('routes.treeView');
  const navigate = useNavigate();
  const { id: param = '' } = useParams();
  const rootId = ID.test(param) ? Number(param) : undefined;
  const { level: root, query: rootCall } = useTreeLevel(rootId);
  const notFound = rootId === undefined || root === null
    || (rootCall.error instanceof ApiHttpError && (rootCall.error.code === 'NOT_FOUND' || rootCall.error.code === 'VALIDATION'));
  const back = <Button type="primary" onClick={() => navigate('/dashboard')}>{t('dashboardFilters.tree.back')}</Button>;

  return (
    <div data-testid="page-dashboard-tree-view">
      <Typography.Title level={2}>{title}</Typography.Title>
      <Card>
        {notFound ? (
          <div data-testid="tree-not-found"><Result status="404" title={t('errors.entityNotFound')} extra={back} /></div>
        ) : rootCall.isError ? (
          <Result status="error" title={t('dashboardFilters.tree.loadFailed')}
            extra={<><Button onClick={() => void rootCall.refetch()}>{t('common.retry')}</Button> {back}</>} />
        ) : root ? (
          <EntityTree key={root.id} root={root} onChoose={(id) => navigate(addressOf({ id, detail: false }))} />
        ) : (
          <Spin />
        )}
      </Card>
    </div>
  );
}
