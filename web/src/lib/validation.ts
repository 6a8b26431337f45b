import { zodResolver } from '@hookform/resolvers/zod';
import {
  useForm,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type RegisterOptions,
  type Resolver,
  type UseFormRegisterReturn,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from '@app/shared/constants';
import { i18n } from './i18n';

/**
 * The app's wording of a field's first issue, from its zod issue code and whether the field was
 * left blank; undefined keeps the schema's own message.
 */
export type FieldCopy = (code: string, blank: boolean) => string | undefined;

/** The wording of the fields the shared schemas validate alike in every form. */
export const fieldCopy = {
  name: (code, blank) =>
    blank ? i18n.t('validation.nameRequired') : code === 'too_big' ? i18n.t('validation.nameTooLong', { max: NAME_MAX }) : undefined,
  email: (code, blank) =>
    blank
      ? i18n.t('validation.emailRequired')
      : code === 'too_big'
        ? i18n.t('validation.emailTooLong', { max: EMAIL_MAX })
        : i18n.t('validation.emailInvalid'),
  password: (code, blank) => {
    if (blank) return i18n.t('validation.passwordRequired');
    if (code === 'too_small') return i18n.t('validation.passwordMin', { min: PASSWORD_MIN });
    if (code === 'too_big') return i18n.t('validation.passwordMax', { max: PASSWORD_MAX });
    return undefined;
  },
} satisfies Record<string, FieldCopy>;

/** A resolver validating with a zod schema, each field's issue in the app's words (current UI language). */
function schemaResolver<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  copy: Partial<Record<keyof Input, FieldCopy>>,
): Resolver<Input, unknown, Output> {
  const resolve: Resolver<Input, unknown, Output> = zodResolver(schema);
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    for (const [name, error] of Object.entries(result.errors)) {
      const value: unknown = values[name];
      const message = error && copy[name]?.(String(error.type), typeof value === 'string' && value.trim() === '');
      if (message) error.message = message;
    }
    return result;
  };
}

/** A react-hook-form form plus `field(name)`: a text field's registration and its error message. */
export type SchemaForm<Input extends FieldValues, Output> = UseFormReturn<Input, unknown, Output> & {
  field: <Name extends FieldPath<Input>>(name: Name, rules?: RegisterOptions<Input, Name>) => UseFormRegisterReturn<Name> & { error: string | undefined };
};

/**
 * A form validated with a shared request schema (the same one the API validates with). Errors
 * show on submit, focus moving to the first invalid field (unless `focusError` is false); editing
 * a field clears its error, or with `revalidate` checks it again. `field(name)` gives a text field
 * its registration and its error message.
 */
export function useSchemaForm<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  copy: Partial<Record<keyof Input, FieldCopy>>,
  options: { defaultValues: DefaultValues<Input>; revalidate?: boolean; focusError?: boolean },
): SchemaForm<Input, Output> {
  const { defaultValues, revalidate = false, focusError = true } = options;
  const form = useForm<Input, unknown, Output>({
    resolver: schemaResolver(schema, copy),
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: focusError,
  });
  const field = <Name extends FieldPath<Input>>(name: Name, rules?: RegisterOptions<Input, Name>) => ({
    ...form.register(name, {
      ...rules,
      onChange: (event: unknown) => {
        if (form.getFieldState(name).error) {
          if (revalidate) void form.trigger(name);
          else form.clearErrors(name);
        }
        return rules?.onChange?.(event);
      },
    }),
    error: form.getFieldState(name, form.formState).error?.message,
  });
  return { ...form, field };
}
