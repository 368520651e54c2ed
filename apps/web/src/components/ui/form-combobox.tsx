import type { ReactNode } from 'react';
import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { Combobox, type ComboboxProps } from './combobox';
import { Field } from './field';

type FormComboboxProps<T extends FieldValues> = Omit<ComboboxProps, 'value' | 'onChange' | 'onBlur' | 'name'> & {
  control: Control<T>;
  name: FieldPathByValue<T, string>;
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Called after the form has the chosen value (e.g. to empty a field that depended on it). */
  onChosen?: (value: string) => void;
};

/**
 * A Combobox as a react-hook-form field. The Field goes around the picker itself, so that its
 * label, hint and error reach the input the person types in.
 */
export function FormCombobox<T extends FieldValues>({ control, name, label, error, hint, onChosen, ...combobox }: FormComboboxProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Field label={label} error={error} hint={hint}>
          <Combobox
            {...combobox}
            ref={field.ref}
            name={field.name}
            value={field.value}
            onChange={(value) => {
              field.onChange(value);
              onChosen?.(value);
            }}
            onBlur={field.onBlur}
          />
        </Field>
      )}
    />
  );
}
