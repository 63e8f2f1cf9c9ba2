/** Prints the configuration table for the README, generated from the zod schema. */
import { configReference } from '../src/config/reference';

console.log(configReference());
