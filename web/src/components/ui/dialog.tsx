import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { X } from 'lucide';
import { PRIVATE_TEXT } from '../../lib/private-text';
import { cn } from './cn';
import { Icon } from './icon';

/** The look of every modal (this dialog and the confirmation's alert dialog). */
export const dialogOverlayClasses = 'fixed inset-0 z-50 bg-slate-950/50';
export const dialogContentClasses =
  'fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-surface p-6 text-fg shadow-xl';

/**
 * A printable dialog on paper: the page's only content (index.css prints nothing else while a
 * `data-print-document` is open), in the flow of the page so a long text runs over several
 * sheets, black on white and without the dialog's frame.
 */
const printDocumentClasses =
  'print:static print:w-auto print:max-w-none print:translate-none print:rounded-none print:bg-white print:p-0 print:text-black print:shadow-none';

/**
 * The app's dialog (Radix: focus trap, Escape, aria-modal, labelled by its title).
 * Import it only from lazily loaded pages so it stays out of the home chunk.
 * `printable`: printing the page prints this dialog's title, description and content alone
 * (the content hides its controls with `print:hidden`). `container`: the element it is rendered
 * into (the body by default; a fullscreen element, so the dialog shows over it).
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  className,
  printable = false,
  container,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
  printable?: boolean;
  container?: HTMLElement | null;
}) {
  const { t } = useTranslation();
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal container={container}>
        <RadixDialog.Overlay className={dialogOverlayClasses} />
        <RadixDialog.Content
          {...PRIVATE_TEXT}
          className={cn(dialogContentClasses, className, printable && printDocumentClasses)}
          {...(printable && { 'data-print-document': true })}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <RadixDialog.Title className="pr-8 text-lg font-semibold print:pr-0 print:text-2xl">{title}</RadixDialog.Title>
          {description && (
            <RadixDialog.Description className="mt-1 text-sm text-fg-muted print:text-black">{description}</RadixDialog.Description>
          )}
          <div className="mt-4">{children}</div>
          <RadixDialog.Close
            aria-label={t('dialog.close')}
            className="absolute right-3 top-3 inline-flex size-9 items-center justify-center rounded-md text-fg-muted hover:bg-surface-muted print:hidden"
          >
            <Icon node={X} size={20} />
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
