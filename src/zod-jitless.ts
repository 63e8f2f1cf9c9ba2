import { config } from 'zod';

// zod compiles a parser for each object schema (`new Function`) the first time it parses one, which
// pays off over thousands of parses; a crew job parses each schema a few times and then exits, so the
// compiling cost most of a job's parsing time. Read when a schema is built: this module comes first.
config({ jitless: true });
