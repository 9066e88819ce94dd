import type { PaginationMeta } from '../../src-shared/api/index.js';

export function paginationMeta(page: number, perPage: number, total: number): PaginationMeta {
  return { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total };
}
