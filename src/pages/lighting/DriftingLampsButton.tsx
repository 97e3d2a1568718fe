// The dashboard bar's button that shows or folds the lamps out of step, with their number.
import { BulbOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { useTranslation } from 'react-i18next';

interface DriftingLampsButtonProps {
  count: number | undefined;
  open: boolean;
  controls: string;
  onToggle(): void;
}

/** antd's badge red is too light behind white digits for WCAG AA; this one gives 5.9:1. */
const BADGE_COLOUR = '#cf1322';

export function DriftingLampsButton({ count, open, controls, onToggle }: DriftingLampsButtonProps) {
  const { t } = useTranslation();
  return (
    <Button icon={<BulbOutlined />} aria-expanded={open} aria-controls={controls} data-testid="drifting-toggle"
      type={open ? 'primary' : 'default'} onClick={onToggle}>
      {t('lighting.drifting.button')}
      {count ? <Badge count={count} color={BADGE_COLOUR} overflowCount={199} title={t('lighting.drifting.count', { count })} /> : null}
    </Button>
  );
}
