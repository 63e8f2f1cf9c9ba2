import type { RouteResponse } from '../http-types';

/** Slices a list the way GitHub does (`per_page` ≤ 100, default 30) and sets the Link header Octokit follows. */
export function paginate<T>(items: T[], url: URL, map: (item: T) => unknown): RouteResponse {
  const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30));
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const link = (p: number, rel: string) => {
    const u = new URL(url);
    u.searchParams.set('per_page', String(perPage));
    u.searchParams.set('page', String(p));
    return `<${u.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(page - 1, 'prev'), link(1, 'first'));
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  return { status: 200, body: slice.map(map), headers: links.length ? { link: links.join(', ') } : {} };
}
