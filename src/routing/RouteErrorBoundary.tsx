// No input blanks the page: whatever a page throws while it renders, the route shows a translated
// error in its place, with "Try again" (the page drawn afresh) and the way back home; the navbar and
// the menu around it stay. React hands the error to the reporter (src/main.tsx, onCaughtError).
// A new address starts afresh.
import { Button, Result, Space } from 'antd';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { retryFailedChunks } from '../pwa/chunkReload.ts';

function PageFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div data-testid="page-failed" role="alert">
      <Result
        status="error"
        title={t('pageFailed.title')}
        subTitle={t('pageFailed.hint')}
        extra={(
          <Space wrap>
            <Button type="primary" onClick={onRetry} data-testid="page-failed-retry">{t('pageFailed.retry')}</Button>
            {/* a whole new load: what failed may be the app's own state */}
            <Button href="/applications" data-testid="page-failed-home">{t('notFound.backHome')}</Button>
          </Space>
        )}
      />
    </div>
  );
}

class Boundary extends Component<{ resetKey: string; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidUpdate(previous: { resetKey: string }) {
    // (not a remount by key: what the page keeps around it, the shell, stays as it is)
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.retry();
  }

  /** Draws the page afresh; code of it that failed to load is fetched again. */
  retry = () => {
    retryFailedChunks();
    this.setState({ failed: false });
  };

  render() {
    return this.state.failed ? <PageFailed onRetry={this.retry} /> : this.props.children;
  }
}

/** Renders the route's page inside the boundary; a failed page is tried again at a new address. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary resetKey={pathname}>{children}</Boundary>;
}
