import { CrewError } from './context';

/**
 * crew's own code imported on first use (a step's, a command's handler): a chunk of dist/ that fails to load
 * fails with what was being loaded and what to do, like any other failure, not a bare "Cannot find module".
 */
export async function ownCode<M>(what: string, importing: Promise<M>): Promise<M> {
  try {
    return await importing;
  } catch (e) {
    throw new CrewError(
      `loading ${what}`,
      `crew could not load its own code for ${what}: ${e instanceof Error ? e.message : String(e)}`,
      "Re-run the failed job. If it fails the same way, the crew version your workflow's `uses:` names is incomplete (its dist/ folder): point it at a release tag of crew.",
    );
  }
}
