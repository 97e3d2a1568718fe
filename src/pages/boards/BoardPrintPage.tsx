// A board to print (SPEC §2 `/{id}/print`, no navbar): every component drawn with its data, then
// the browser's print dialog. A4 portrait or landscape (the page's @page rule). The moment all
// are drawn is on the root as data-print-ready="true" (a bench measures it).
import { PrinterOutlined } from '@ant-design/icons';
import { useOne } from '@refinedev/core';
import { Button, Radio, Result, Space, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { pickLocalized, type LocalizedValue } from '../../shared/i18n/pickLocalized.ts';
import type { BoardKind } from '../../resources/boardKinds.ts';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import type { Board } from '../../schemas/board.ts';
import { DrawAllAtOnce } from '../../components/charts/drawTurns.ts';
import { BoardGrid } from './BoardGrid.tsx';
import { useBoardComponents } from './BoardPage.tsx';
import { useReadyComponents } from './useReadyComponents.ts';
import './boards.css';

type Orientation = 'portrait' | 'landscape';

export default function BoardPrintPage({ kind }: { kind: BoardKind }) {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  usePageTitle(kind.titleKeys.print);
  const [orientation, setOrientation] = useState<Orientation>('landscape');
  const boardCall = useOne<Board & { id: number }>({ resource: kind.board.name, id, errorNotification: false });
  const componentsCall = useBoardComponents(kind, id);
  const components = componentsCall.result.data;
  const { ready, onReadyOf } = useReadyComponents();
  const allReady = !!boardCall.result && !!components && components.every((component) => ready.has(component.id));
  const printed = useRef(false);

  useEffect(() => {
    if (!allReady || printed.current) return;
    printed.current = true;
    // one frame for the last chart to reach the screen
    requestAnimationFrame(() => window.print());
  }, [allReady]);

  if (boardCall.query.isError) return <Result status="404" title={t('errors.entityNotFound')} extra={<Link to={kind.route}>{t('boards.backToList')}</Link>} />;
  const board = boardCall.result;
  const name = board ? pickLocalized(board.name as LocalizedValue, i18n.language) || `#${board.id}` : '';

  return (
    <main className="board-print" data-testid="board-print" data-print-ready={allReady ? 'true' : 'false'} data-orientation={orientation}>
      <style>{`@page { size: A4 ${orientation}; margin: 10mm; }`}</style>
      <Space className="board-print-toolbar" wrap style={{ marginBottom: 12 }}>
        <Radio.Group value={orientation} onChange={(event) => setOrientation(event.target.value as Orientation)} optionType="button"
          aria-label={t('boards.orientation')} options={[
            { value: 'portrait', label: t('boards.portrait') },
            { value: 'landscape', label: t('boards.landscape') },
          ]} />
        <Button icon={<PrinterOutlined />} onClick={() => window.print()}>{t('boards.print')}</Button>
        <Link to={`${kind.route}/${id}`}>{t('boards.backToBoard')}</Link>
        {!allReady && <Typography.Text type="secondary" role="status">{t('boards.preparingPrint')}</Typography.Text>}
      </Space>
      <Typography.Title level={1} style={{ fontSize: 24 }}>{name}</Typography.Title>
      {!board || !components ? <Spin /> : <DrawAllAtOnce><BoardGrid components={components} breakpoint="lg" print onReadyOf={onReadyOf} /></DrawAllAtOnce>}
    </main>
  );
}
