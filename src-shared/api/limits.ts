/**
 * The numeric limits of the Media File Service API v1 ("Limits" table of the spec).
 * Client and reference server read them from here so they can never disagree.
 */
export const API_LIMITS = {
  searchMaxChars: 255,
  pageMin: 1,
  perPageDefault: 25,
  perPageMax: 100,
  fileNameMaxChars: 255,
  remoteNameMaxChars: 240,
  descriptionMaxChars: 1000,
  blockedCountriesMax: 250,
  requestsPerMinute: 60,
  /** "Upload chunk size: 90 MB", read as decimal megabytes. */
  chunkSizeBytes: 90_000_000,
} as const;

export const PLANS = ['free', 'premium'] as const;
export type Plan = (typeof PLANS)[number];

/**
 * "4 GB" / "15 GB" per file. Read as binary gigabytes (GiB), the way file hosts
 * usually mean it; a file of exactly this size is accepted, one byte more is not.
 */
export const PLAN_FILE_SIZE_LIMIT_BYTES: Readonly<Record<Plan, number>> = {
  free: 4 * 1024 ** 3,
  premium: 15 * 1024 ** 3,
};

/** The version prefix every base address ends with. */
export const API_PREFIX = '/api/v1';
