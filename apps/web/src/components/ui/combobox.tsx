import { forwardRef, useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { Check, ChevronDown } from 'lucide-react';
import { cn } from '@/lib/cn';
import { formatCount } from '@/lib/format';

export interface ComboboxOption {
  value: string;
  label: string;
}

export interface ComboboxProps {
  /** Every choice, in the order shown; only the first `maxShown` matches are drawn at a time. */
  options: ComboboxOption[];
  /** The chosen option's value; '' for none. */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** Names the list of choices for a screen reader, e.g. 'Grupper'. */
  listLabel: string;
  placeholder?: string;
  /** Shown for a chosen value that is not (yet) among the options, e.g. while they load. */
  fallbackLabel?: string;
  maxShown?: number;
  disabled?: boolean;
  name?: string;
  // Set by <Field>: the label's target and the hint and error it describes.
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

const normalise = (text: string) => text.trim().toLocaleLowerCase('sv');

/**
 * A text field that filters a list of choices as you type (WAI-ARIA combobox with a listbox
 * popup, APG "list autocomplete with manual selection"): arrow keys move through the matches,
 * Enter chooses, Escape closes and keeps the earlier choice. Made for lists of thousands (every
 * group of the country): only the first matches are drawn, and typing narrows them.
 */
export const Combobox = forwardRef<HTMLInputElement, ComboboxProps>(function Combobox(
  {
    options,
    value,
    onChange,
    onBlur,
    listLabel,
    placeholder,
    fallbackLabel = '',
    maxShown = 100,
    disabled,
    name,
    id,
    'aria-invalid': invalid,
    'aria-describedby': describedBy,
  },
  ref,
) {
  const ownId = useId();
  const inputId = id ?? ownId;
  const listId = `${inputId}-list`;
  const optionId = (index: number) => `${inputId}-option-${index}`;
  const [open, setOpen] = useState(false);
  /** What is typed; null while the field shows the chosen option. */
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);

  const chosen = useMemo(() => options.find((option) => option.value === value), [options, value]);
  const matches = useMemo(() => {
    const needle = query === null ? '' : normalise(query);
    return needle ? options.filter((option) => normalise(option.label).includes(needle)) : options;
  }, [options, query]);
  const shown = open ? matches.slice(0, maxShown) : [];
  const activeOption = shown[active];

  useEffect(() => {
    if (open) document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
    // optionId is derived from inputId.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, active, inputId]);

  // Escape in an open list closes the list only, not the dialog around it: a modal (Radix) closes
  // on an Escape it sees first, on the document, unless the key is already handled.
  useEffect(() => {
    if (!open) return;
    const claimEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape' && event.target instanceof HTMLElement && event.target.id === inputId) event.preventDefault();
    };
    window.addEventListener('keydown', claimEscape, true);
    return () => window.removeEventListener('keydown', claimEscape, true);
  }, [open, inputId]);

  /** Opens on the chosen option when it is among the first shown, else on the first. */
  const openList = () => {
    if (disabled) return;
    const index = matches.slice(0, maxShown).findIndex((option) => option.value === value);
    setActive(Math.max(index, 0));
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    setQuery(null);
  };
  const choose = (option: ComboboxOption) => {
    onChange(option.value);
    close();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) openList();
        else setActive((index) => Math.min(index + 1, shown.length - 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) openList();
        else setActive((index) => Math.max(index - 1, 0));
        break;
      case 'PageDown':
        if (open) {
          event.preventDefault();
          setActive((index) => Math.min(index + 10, shown.length - 1));
        }
        break;
      case 'PageUp':
        if (open) {
          event.preventDefault();
          setActive((index) => Math.max(index - 10, 0));
        }
        break;
      case 'Enter':
        // With the list open, Enter chooses; with it closed, it submits the form as usual.
        if (open && activeOption) {
          event.preventDefault();
          choose(activeOption);
        }
        break;
      case 'Escape':
        if (open || query !== null) {
          event.preventDefault();
          close();
        }
        break;
    }
  };

  const text = query ?? chosen?.label ?? (value ? fallbackLabel : '');
  const truncated = matches.length > shown.length;

  return (
    <div className="relative">
      <input
        ref={ref}
        id={inputId}
        name={name}
        type="text"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeOption ? optionId(active) : undefined}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        placeholder={placeholder}
        value={text}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onClick={() => (open ? undefined : openList())}
        onKeyDown={onKeyDown}
        onBlur={() => {
          close();
          onBlur?.();
        }}
        className="block h-11 w-full rounded-md border border-slate-400 bg-white pl-3 pr-10 text-base text-ink placeholder:text-slate-500 disabled:bg-slate-100 aria-[invalid=true]:border-danger"
      />
      {/* For the mouse; the keyboard opens the list with the arrow keys. */}
      <button
        type="button"
        tabIndex={-1}
        aria-label={`Visa ${listLabel.toLocaleLowerCase('sv')}`}
        disabled={disabled}
        // Keeps focus in the field, so the list does not close before it opens.
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => {
          if (open) close();
          else {
            document.getElementById(inputId)?.focus();
            openList();
          }
        }}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center text-muted"
      >
        <ChevronDown className="size-5" aria-hidden="true" />
      </button>
      <div
        hidden={!open}
        className="absolute left-0 right-0 z-30 mt-1 overflow-hidden rounded-md border border-line bg-white shadow-lg"
        // A click on a choice must not blur the field first.
        onMouseDown={(event) => event.preventDefault()}
      >
        <ul id={listId} role="listbox" aria-label={listLabel} hidden={shown.length === 0} className="max-h-64 overflow-y-auto py-1">
          {shown.map((option, index) => (
            <li
              key={option.value}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              onClick={() => choose(option)}
              onMouseMove={() => index !== active && setActive(index)}
              className={cn(
                'flex cursor-pointer items-center justify-between gap-2 px-3 py-2 text-sm text-ink',
                index === active && 'bg-brand-soft',
                option.value === value && 'font-semibold',
              )}
            >
              <span className="break-words">{option.label}</span>
              {option.value === value && <Check className="size-4 shrink-0 text-brand" aria-hidden="true" />}
            </li>
          ))}
        </ul>
        {open && shown.length === 0 && <p className="px-3 py-2 text-sm text-muted">Inga träffar</p>}
        {open && truncated && (
          <p className="border-t border-line px-3 py-2 text-xs text-muted">
            Visar {formatCount(shown.length)} av {formatCount(matches.length)}. Skriv för att söka bland resten.
          </p>
        )}
      </div>
      <p role="status" className="sr-only">
        {open && query !== null ? (matches.length === 0 ? 'Inga träffar' : `${formatCount(matches.length)} träffar`) : ''}
      </p>
    </div>
  );
});
