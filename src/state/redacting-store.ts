import type { StateStore, StateTx } from '../ports';
import { redact } from '../text/redact';
import { storeAround } from './store-around';

/**
 * The crew/state branch is pushed to GitHub, so what crew writes there is redacted like
 * anything it posts: results, logs and commit messages carry model and command text.
 */
export function redactingStore(inner: StateStore): StateStore {
  return storeAround(inner, (prefix, message, mutate, fresh) =>
    inner.update(
      prefix,
      redact(message),
      (tx) => {
        const safe: StateTx = {
          read: (p) => tx.read(p),
          write: (p, content) => tx.write(p, redact(content)),
          remove: (p) => tx.remove(p),
          list: (p) => tx.list(p),
        };
        return mutate(safe);
      },
      fresh,
    ),
  );
}
