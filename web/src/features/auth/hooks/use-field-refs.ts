import { useRef } from 'react';

/** Refs for a form's fields, to move focus to the first invalid one on submit. */
export function useFieldRefs<F extends string>() {
  const refs = useRef<Partial<Record<F, HTMLInputElement | null>>>({});
  const register = (field: F) => (el: HTMLInputElement | null) => {
    refs.current[field] = el;
  };
  const focusFirst = (order: readonly F[], errors: Partial<Record<F, string | undefined>>) => {
    const first = order.find((f) => errors[f]);
    if (first) refs.current[first]?.focus();
  };
  return { register, focusFirst };
}
