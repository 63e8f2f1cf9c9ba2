export type ExprValue = null | boolean | number | string | ExprValue[] | { [k: string]: ExprValue };

/** Named contexts available to an expression: github, env, vars, secrets, inputs, needs, matrix, steps, job, runner, strategy… */
export interface ExprContext {
  [name: string]: ExprValue | undefined;
}

/** Job/step status as seen by `success()`, `failure()`, `cancelled()` and `always()`. */
export interface StatusFunctions {
  success(): boolean;
  failure(): boolean;
  cancelled(): boolean;
  always?(): boolean;
}
