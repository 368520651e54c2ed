// Filled in by the orders capability.
export {};
