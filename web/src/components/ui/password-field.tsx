import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Eye, EyeOff } from 'lucide';
import { TextField, type TextFieldProps } from './text-field';
import { Icon } from './icon';

export interface PasswordFieldProps extends Omit<TextFieldProps, 'type' | 'trailing'> {
  /** Controlled visibility, to let one toggle drive a password and its confirmation. */
  visible?: boolean;
  onVisibleChange?: (visible: boolean) => void;
  /** Without a toggle (a confirmation field that follows another field's toggle). */
  toggle?: boolean;
}

/** A password field with a show/hide toggle whose label says what it will do. */
export function PasswordField({ visible: controlled, onVisibleChange, toggle = true, ...props }: PasswordFieldProps) {
  const { t } = useTranslation();
  const [own, setOwn] = useState(false);
  const visible = controlled ?? own;
  const setVisible = (next: boolean) => (onVisibleChange ? onVisibleChange(next) : setOwn(next));
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        toggle ? (
          <button
            type="button"
            onClick={() => setVisible(!visible)}
            aria-label={visible ? t('password.hide') : t('password.show')}
            className="inline-flex size-10 items-center justify-center rounded-md text-fg-muted hover:bg-surface-muted hover:text-fg"
          >
            {visible ? <Icon node={EyeOff} size={20} /> : <Icon node={Eye} size={20} />}
          </button>
        ) : undefined
      }
    />
  );
}
