import { Alert, Button } from 'antd';
import { useAtom } from 'jotai';
import { useNavigate } from 'react-router-dom';
import { CARD_ORDER_NOTICE, CARD_ORDER_PATH, cardOrderPendingAtom, useCardStartupCheck } from './useCardStartupCheck';

/** SPEC §4 card startup check: a banner over the content while a card order awaits confirmation. */
export function CardOrderBanner() {
  useCardStartupCheck();
  const [pending, setPending] = useAtom(cardOrderPendingAtom);
  const navigate = useNavigate();
  if (!pending) return null;
  return (
    <Alert
      banner
      closable
      type="warning"
      message={CARD_ORDER_NOTICE}
      description="请前往“待确认卡订单”页面确认。"
      onClose={() => setPending(false)}
      action={
        <Button
          type="primary"
          size="small"
          onClick={() => {
            setPending(false);
            navigate(CARD_ORDER_PATH);
          }}
        >
          去确认
        </Button>
      }
    />
  );
}
