// Filled in by the seller capability.
export {};
