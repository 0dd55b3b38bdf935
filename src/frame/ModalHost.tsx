import useModal from 'antd/es/modal/useModal';
import type { HookAPI } from 'antd/es/modal/useModal';
import { useLayoutEffect } from 'react';

/** The holder of the frame's dialogs (ConsoleApp), mounted when the first one is asked for. */
export default function ModalHost({ onReady }: { onReady: (modal: HookAPI) => void }) {
  const [modal, holder] = useModal();
  useLayoutEffect(() => onReady(modal), [modal, onReady]);
  return holder;
}
