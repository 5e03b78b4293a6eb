// `npm run create-company -- --name "Acme" --admin-email ops@acme.example [--admin-name "Ann"]`:
// creates a company and its first admin in the database `npm start` uses (running or not), and
// prints the admin's generated password, once.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import {
  createCompanyWithAdmin,
  EmailTakenError,
  newCompanySchema,
  provisionChatRooms,
  type ProvisionLog,
} from '@frontdesk/api/operations';
import { listProcesses, processEnvironment } from '../process.ts';
import { isApiOf } from '../stack.ts';
import { openOperatorDatabase } from './operator-database.ts';

const name = 'create-company';
const USAGE =
  'usage: npm run create-company -- --name "Acme" --admin-email ops@acme.example [--admin-name "Ann Admin"]';
const say = (line: string) => console.log(`[${name}] ${line}`);
const fail: (message: string, status: number) => never = (message, status) => {
  console.error(`[${name}] ${message}`);
  process.exit(status);
};

let input: z.infer<typeof newCompanySchema>;
try {
  const { values } = parseArgs({
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-name': { type: 'string' },
    },
    strict: true,
  });
  const parsed = newCompanySchema.safeParse({
    name: values.name,
    adminEmail: values['admin-email'],
    ...(values['admin-name'] === undefined ? {} : { adminName: values['admin-name'] }),
  });
  if (!parsed.success) {
    const flag = { name: '--name', adminEmail: '--admin-email', adminName: '--admin-name' };
    const problems = parsed.error.issues.map((issue) => {
      const key = issue.path[0] as keyof typeof flag;
      // A missing flag arrives as undefined: say so rather than zod's type message.
      const missing = issue.code === 'invalid_type' && issue.input === undefined;
      return `${flag[key] ?? key} ${missing ? 'is required' : issue.message}`;
    });
    fail(`${problems.join('; ')}\n${USAGE}`, 2);
  }
  input = parsed.data;
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`, 2);
}

const { db, settings, close } = await openOperatorDatabase(name);
let failure: string | undefined;
try {
  const created = await createCompanyWithAdmin(db, input);

  // A running Frontdesk made its chat rooms at its start; this company's is made now, through
  // the same ejabberd (its API's environment names it). Otherwise the next start makes it.
  const root = resolve(settings.dataDir);
  const api = listProcesses().find((proc) => isApiOf(root, proc));
  const running = (variable: string) => (api ? processEnvironment(api.pid, variable) : undefined);
  const adminApiUrl = running('XMPP_ADMIN_URL');
  const domain = running('XMPP_DOMAIN');
  let chat = 'made at the next npm start (Frontdesk is not running)';
  if (adminApiUrl && domain) {
    const quiet: ProvisionLog = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    };
    chat = (await provisionChatRooms(db, { adminApiUrl, domain }, quiet, [500, 1000, 2000]))
      ? 'ready'
      : 'not made yet (the chat server did not answer): restart Frontdesk';
  }

  // Where browsers go: public mode's address (ours, or the running supervisor's), else the
  // API's own port.
  const base = (
    process.env.FRONTDESK_PUBLIC_URL ??
    running('FRONTDESK_PUBLIC_URL') ??
    `http://127.0.0.1:${running('PORT') ?? process.env.PORT ?? 8080}`
  ).replace(/\/$/, '');
  say(`Created company ${created.companyId} "${created.name}" and its admin.`);
  console.log(
    [
      `  Console:     ${base}/console/`,
      `  E-mail:      ${created.adminEmail}`,
      `  Password:    ${created.password}`,
      '               (shown only now: Frontdesk keeps only its hash; copy it somewhere safe)',
      `  Guest page:  ${base}/?company=${created.companyId}  (one category, "General"; open at any hour)`,
      `  Chat room:   ${chat}`,
    ].join('\n'),
  );
} catch (error) {
  failure =
    error instanceof EmailTakenError
      ? error.message
      : `failed: ${error instanceof Error ? error.message : String(error)}`;
} finally {
  // Also after a failure: a cluster started just for this command is stopped gracefully.
  await close();
}
if (failure) fail(failure, 1);
