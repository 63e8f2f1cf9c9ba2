import type { FakeGitHub } from './fake-github';
import type { Access, Principal, Scope } from './model';

export interface RouteRequest {
  gh: FakeGitHub;
  principal: Principal;
  params: Record<string, string>;
  query: URLSearchParams;
  body: any;
  url: URL;
}

export interface RouteResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Route {
  /** Which GITHUB_TOKEN permission the route needs, as in a workflow's `permissions:` block. */
  scope: Scope | Scope[];
  access: Access;
  /** What a person's collaborator role must allow, when it differs from the token scope (anyone may comment). */
  userAccess?: Access;
  /** Content-creating writes count towards GitHub's secondary rate limit. */
  creates?: boolean;
  handle(req: RouteRequest): Promise<RouteResponse> | RouteResponse;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = () => new HttpError(404, 'Not Found');

/** GitHub's 422 "Validation Failed" body, with one error entry. */
export function validationFailed(resource: string, field: string, code: string, message?: string): HttpError {
  return new HttpError(422, 'Validation Failed', {
    errors: [{ resource, field, code, ...(message ? { message } : {}) }],
  });
}
