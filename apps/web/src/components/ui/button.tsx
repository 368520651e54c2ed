import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { Slot } from '@radix-ui/react-slot';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '@/lib/cn';

/** spec §9: variants default, destructive, outline, secondary, ghost, link, brand, accent, success, warning, pill. */
export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-semibold transition-colors disabled:pointer-events-none disabled:opacity-60 [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        default: 'bg-ink text-white hover:bg-slate-700',
        destructive: 'bg-danger text-white hover:bg-danger-hover',
        outline: 'border border-line bg-white text-ink hover:bg-slate-50',
        secondary: 'bg-slate-200 text-ink hover:bg-slate-300',
        ghost: 'text-ink hover:bg-slate-100',
        link: 'text-brand underline-offset-4 hover:underline',
        brand: 'bg-brand text-white hover:bg-brand-hover',
        accent: 'bg-accent text-ink hover:bg-accent-hover',
        success: 'bg-success text-white hover:bg-green-800',
        warning: 'bg-warning text-white hover:bg-amber-800',
        pill: 'rounded-full bg-brand-soft text-brand hover:bg-emerald-200',
      },
      size: {
        sm: 'h-9 px-3',
        default: 'h-11 px-4',
        lg: 'h-12 px-6 text-base',
        xl: 'h-14 px-8 text-lg',
        icon: 'size-11',
        'icon-sm': 'size-9',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
);

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, VariantProps<typeof buttonVariants> {
  /** Render the child (a link) with the button's look. */
  asChild?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(({ className, variant, size, asChild = false, type, ...props }, ref) => {
  const Component = asChild ? Slot : 'button';
  return (
    <Component
      ref={ref}
      className={cn(buttonVariants({ variant, size }), className)}
      type={asChild ? undefined : (type ?? 'button')}
      {...props}
    />
  );
});
Button.displayName = 'Button';
