export const CATEGORIES = ['sailing-boats', 'yachts'] as const;
export type Category = (typeof CATEGORIES)[number];
