import { CloseOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import { useSetAtom } from 'jotai';
import { useLocation, useNavigate } from 'react-router-dom';
import { normalisePath } from '../session/menu';
import { CARD_ORDER_NOTICE, CARD_ORDER_PATH, cardOrderPendingAtom, dismissCardOrderNotice, useCardStartupCheck } from './useCardStartupCheck';

/**
 * SPEC §4 card startup check: one slim line at the top of the content while a card order awaits
 * the user's confirmation (not on the list it links to). Closing it, or following it, lasts for
 * the session.
 */
export function CardOrderBanner() {
  const pending = useCardStartupCheck();
  const setPending = useSetAtom(cardOrderPendingAtom);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  if (!pending || normalisePath(pathname) === CARD_ORDER_PATH) return null;
  const dismiss = () => {
    dismissCardOrderNotice();
    setPending(false);
  };
  return (
    <Alert
      closable={{ closeIcon: <CloseOutlined aria-hidden />, 'aria-label': '关闭卡订单提醒' }}
      showIcon
      type="warning"
      message={CARD_ORDER_NOTICE}
      onClose={dismiss}
      style={{ paddingBlock: 4, margin: '8px 8px 0' }}
      data-testid="card-order-notice"
      action={
        <Button
          type="link"
          size="small"
          onClick={() => {
            dismiss();
            navigate(CARD_ORDER_PATH);
          }}
        >
          去确认
        </Button>
      }
    />
  );
}
