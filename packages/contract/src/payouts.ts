// Filled in by the payouts capability.
export {};
