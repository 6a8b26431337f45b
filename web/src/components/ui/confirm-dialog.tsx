import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { ReactNode } from 'react';
import { PRIVATE_TEXT } from '../../lib/private-text';
import { Button } from './button';
import { dialogContentClasses, dialogOverlayClasses } from './dialog';

/**
 * A yes/no question in an alert dialog (a delete, a discard): only Cancel, Escape or the
 * action answer it, never a click outside. Cancel comes first and gets the focus when it
 * opens, so Enter never destroys anything by accident. Stays open while `pending`; the
 * caller closes it when the action is done.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pendingLabel,
  cancelLabel,
  pending = false,
  tone = 'danger',
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  cancelLabel: string;
  pending?: boolean;
  tone?: 'danger' | 'primary';
  onConfirm: () => void;
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialogOverlayClasses} />
        <AlertDialog.Content className={dialogContentClasses} {...PRIVATE_TEXT}>
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-1 text-sm text-fg-muted">{description}</AlertDialog.Description>
          <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={pending}>
                {cancelLabel}
              </Button>
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that would close the dialog before the action is done. */}
            <Button variant={tone} onClick={onConfirm} loading={pending}>
              {pending ? pendingLabel : confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
