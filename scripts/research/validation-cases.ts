export const VALIDATION_CASES = [] as const;
