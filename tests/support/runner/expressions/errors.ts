/**
 * Thrown for every lexing, parsing and evaluation failure. The message follows the shape GitHub uses
 * ("… Located at position N within expression: EXPR"), with a 1-based position, so a failing test points
 * straight at the offending workflow text.
 */
export class ExpressionError extends Error {
  override readonly name = 'ExpressionError';

  constructor(
    readonly detail: string,
    readonly expression: string,
    /** 1-based character position within `expression`. */
    readonly position: number,
  ) {
    super(`${detail}. Located at position ${position} within expression: ${expression}`);
  }
}
