// Filled in by the admin capability.
export {};
