// `npm run create-operator -- --email ops@example.com [--name "Olga"]`: creates a platform
// operator (decision 0017), who signs in at POST /api/operator/login and creates companies, in
// the database `npm start` uses (running or not), and prints the generated password, once.
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import {
  createOperator,
  newOperatorSchema,
  OperatorEmailTakenError,
} from '@frontdesk/api/operations';
import { openOperatorDatabase } from './operator-database.ts';

const name = 'create-operator';
const USAGE = 'usage: npm run create-operator -- --email ops@example.com [--name "Olga Operator"]';
const fail: (message: string, status: number) => never = (message, status) => {
  console.error(`[${name}] ${message}`);
  process.exit(status);
};

let input: z.infer<typeof newOperatorSchema>;
try {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, name: { type: 'string' } },
    strict: true,
  });
  const parsed = newOperatorSchema.safeParse({
    email: values.email,
    ...(values.name === undefined ? {} : { name: values.name }),
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const missing = issue.code === 'invalid_type' && issue.input === undefined;
      return `--${String(issue.path[0])} ${missing ? 'is required' : issue.message}`;
    });
    fail(`${problems.join('; ')}\n${USAGE}`, 2);
  }
  input = parsed.data;
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`, 2);
}

const { db, close } = await openOperatorDatabase(name);
let failure: string | undefined;
try {
  const operator = await createOperator(db, input);
  console.log(
    [
      `[${name}] Created platform operator ${operator.id} "${operator.name}".`,
      `  E-mail:      ${operator.email}`,
      `  Password:    ${operator.password}`,
      '               (shown only now: Frontdesk keeps only its hash; copy it somewhere safe)',
      '  Sign in:     POST /api/operator/login {email, password}; then GET and POST /api/operator/companies',
    ].join('\n'),
  );
} catch (error) {
  failure =
    error instanceof OperatorEmailTakenError
      ? error.message
      : `failed: ${error instanceof Error ? error.message : String(error)}`;
} finally {
  await close();
}
if (failure) fail(failure, 1);
