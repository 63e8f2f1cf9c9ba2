export interface RouteTemplateOptions {
  /** Parameters that may span several path segments (GitHub accepts literal `/`). */
  slashParams?: readonly string[];
  /** Parameters documented as integers: they only match digits. */
  integerParams?: readonly string[];
}

export interface RouteTemplate {
  template: string;
  paramNames: string[];
  literalSegments: number;
  regex: RegExp;
}

const PARAM = /\{([^}]+)\}/g;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function compileRouteTemplate(template: string, options: RouteTemplateOptions = {}): RouteTemplate {
  const slashParams = new Set(options.slashParams ?? []);
  const integerParams = new Set(options.integerParams ?? []);
  const paramNames: string[] = [];
  let literalSegments = 0;
  const segments = template.split('/').map((segment) => {
    if (!segment.includes('{')) {
      if (segment !== '') literalSegments += 1;
      return escapeRegex(segment);
    }
    let pattern = '';
    let last = 0;
    for (const match of segment.matchAll(PARAM)) {
      const name = match[1] ?? '';
      paramNames.push(name);
      pattern += escapeRegex(segment.slice(last, match.index));
      if (slashParams.has(name)) pattern += '((?:[^/]+/)*[^/]+)';
      else if (integerParams.has(name)) pattern += '([0-9]+)';
      else pattern += '([^/]+)';
      last = match.index + match[0].length;
    }
    return pattern + escapeRegex(segment.slice(last));
  });
  return { template, paramNames, literalSegments, regex: new RegExp(`^${segments.join('/')}$`) };
}

export interface RouteMatch {
  /** Percent-decoded parameter values. */
  params: Record<string, string>;
  /** True when a parameter took in a literal `/` (not an encoded %2F). */
  spansSegments: boolean;
}

/**
 * Matches a request pathname (no query string), or returns undefined when the
 * path does not fit or is badly percent-encoded.
 */
export function matchRouteTemplate(route: RouteTemplate, pathname: string): RouteMatch | undefined {
  const match = route.regex.exec(pathname);
  if (!match) return undefined;
  const params: Record<string, string> = {};
  let spansSegments = false;
  try {
    route.paramNames.forEach((name, index) => {
      const raw = match[index + 1] ?? '';
      if (raw.includes('/')) spansSegments = true;
      params[name] = decodeURIComponent(raw);
    });
  } catch {
    return undefined;
  }
  return { params, spansSegments };
}

/** A concrete path for a template, every parameter replaced by `1`. */
export function sampleRoutePath(template: string): string {
  return template.replace(PARAM, '1');
}
