import { stackDown, stackStatus, stackUp } from './stack/commands.js';
import { StackError } from './stack/errors.js';

const usage = 'usage: tsx scripts/stack.ts up|down|status';

async function main(command: string | undefined): Promise<number> {
  switch (command) {
    case 'up':
      await stackUp();
      return 0;
    case 'down':
      await stackDown();
      return 0;
    case 'status':
      // Non-zero when either server does not answer, so scripts can test it.
      return (await stackStatus()).healthy ? 0 : 1;
    default:
      console.error(usage);
      return 2;
  }
}

main(process.argv[2]).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof StackError ? `[stack] ${error.message}` : error);
    process.exitCode = 1;
  },
);
