/**
 * A self-hosted runner's proxy for crew's GitHub requests. @actions/github sent them through @actions/http-client's
 * proxy rules (its lib/proxy.ts): `https_proxy`/`HTTPS_PROXY` for https URLs, `http_proxy`/`HTTP_PROXY` for http,
 * lower case first; a proxy value without a scheme is `http://`; no proxy for a loopback host, nor for a host
 * `no_proxy`/`NO_PROXY` names (`*`, the host, `host:port`, or a domain it is under). crew keeps those rules, and
 * loads undici (a proxy-capable fetch) only when a proxy variable is set, so a job without one never parses it (#53).
 */

type Env = Record<string, string | undefined>;

const PROXY_VARS = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];

/** The proxy a request to `url` goes through, or undefined to go straight. */
export function proxyFor(url: URL, env: Env): URL | undefined {
  if (bypasses(url, env)) return undefined;
  const value = url.protocol === 'https:' ? env.https_proxy || env.HTTPS_PROXY : env.http_proxy || env.HTTP_PROXY;
  if (!value) return undefined;
  try {
    return new URL(/^https?:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new Error(`the proxy variable's value '${value}' is not a URL: set HTTPS_PROXY to the runner's proxy, such as http://proxy.example:3128.`);
  }
}

function bypasses(url: URL, env: Env): boolean {
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host.startsWith('127.') || host === '[::1]' || host === '[0:0:0:0:0:0:0:1]') return true;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const names = [host, `${host}:${port}`];
  return (env.no_proxy || env.NO_PROXY || '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean)
    .some((n) => n === '*' || names.some((h) => h === n || h.endsWith(n.startsWith('.') ? n : `.${n}`)));
}

/**
 * A fetch that goes through the proxy the environment names, and `direct` where none applies (all of
 * them when no proxy variable is set). undici is imported on the first request that goes through a proxy.
 */
export function proxyFetch(env: Env, direct: typeof fetch): typeof fetch {
  if (!PROXY_VARS.some((v) => env[v])) return direct;
  const agents = new Map<string, Promise<{ fetch: typeof fetch; dispatcher: unknown }>>();
  const through = (proxy: URL) => {
    let agent = agents.get(proxy.href);
    if (!agent) {
      // undici's ProxyAgent tunnels with CONNECT and sends the URL's user and password as Proxy-Authorization.
      agent = import('undici').then((u) => ({ fetch: u.fetch as unknown as typeof fetch, dispatcher: new u.ProxyAgent(proxy.href) }));
      agents.set(proxy.href, agent);
    }
    return agent;
  };
  return async (input, init) => {
    // (Not `instanceof Request`: reading that global would load undici.)
    const url = new URL(typeof input === 'object' && 'url' in input ? input.url : String(input));
    const proxy = proxyFor(url, env);
    if (!proxy) return direct(input, init);
    const agent = await through(proxy);
    return agent.fetch(input, { ...init, dispatcher: agent.dispatcher } as RequestInit);
  };
}
