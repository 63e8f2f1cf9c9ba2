import { effortFor, type Effort, type EffortRole } from '../domain/effort';
import type { Model } from '../ports';

/** The model as `role` reaches it: each request carries the role's effort for its model (`effort` in .github/crew.yml). */
export function withEffort(model: Model, configured: Partial<Record<EffortRole, Effort>>, role: EffortRole): Model {
  return {
    complete(request) {
      const effort = request.effort ?? effortFor(configured, role, request.model);
      return model.complete(effort ? { ...request, effort } : request);
    },
  };
}
