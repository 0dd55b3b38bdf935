import type { ModalFuncProps } from 'antd';
import type { ConfigUpdate } from 'antd/es/modal/confirm';
import type { HookAPI } from 'antd/es/modal/useModal';

type Kind = keyof HookAPI;
type Opened = ReturnType<HookAPI[Kind]>;

/**
 * antd's `modal` (App.useApp().modal: confirm, info …) whose dialogs load with their first use:
 * `load` resolves to the hook API once its holder is mounted. Until then each call hands back a
 * handle that takes `update` and `destroy` and resolves `then` as antd's does (true for OK). When
 * the dialogs cannot be loaded the call is answered as a dismissal (`onCancel`, then `afterClose`),
 * so that whoever waits on it (a navigation blocker, a promise) is not left hanging, and
 * `onFailure` is told.
 */
export function lazyModalApi(load: () => Promise<HookAPI>, onFailure: (error: Error) => void): HookAPI {
  const open =
    (kind: Kind) =>
    (config: ModalFuncProps): Opened => {
      let opened: Opened | null = null;
      let destroyed = false;
      const updates: ConfigUpdate[] = [];
      const confirmed = load().then(
        (modal) =>
          new Promise<boolean>((resolve) => {
            if (destroyed) return resolve(false);
            const dialog = modal[kind](config);
            opened = dialog;
            updates.forEach((update) => dialog.update(update));
            void dialog.then(resolve, () => resolve(false));
          }),
        (error: Error) => {
          onFailure(error);
          config.onCancel?.();
          config.afterClose?.();
          return false;
        },
      );
      return {
        destroy: () => {
          destroyed = true;
          opened?.destroy();
        },
        update: (update) => (opened ? opened.update(update) : void updates.push(update)),
        // `confirmed` never rejects: a failed load is answered as a dismissal.
        then: (resolve) => confirmed.then(resolve),
      };
    };
  return { info: open('info'), success: open('success'), error: open('error'), warning: open('warning'), confirm: open('confirm') };
}
