import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

export const cn = (...inputs: ClassValue[]) => twMerge(clsx(inputs));

/**
 * tailwind-merge builds its map of all of Tailwind's classes on its first call, tens of
 * milliseconds on a phone. Called in a task of its own while the first page waits for its data,
 * so that no render holds the main thread for it.
 */
export const prepareClassMerge = () => void twMerge('p-0 p-1');
