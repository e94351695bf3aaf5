// `node supervise.mjs RESULT -- program args…`: runs the program on this
// terminal and outlives a hang-up (SIGHUP) of it, then writes the program's
// exit code or signal and its stderr to RESULT as JSON. A test of a closed
// terminal needs someone left to see how the program ended.
import {spawn} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import process from 'node:process';

const [result, , program, ...args] = process.argv.slice(2);
// A handler, not SIG_IGN: the child gets the default disposition back at exec.
process.on('SIGHUP', () => undefined);
const child = spawn(program, args, {stdio: ['inherit', 'inherit', 'pipe']});
let stderr = '';
child.stderr.setEncoding('utf8');
child.stderr.on('data', chunk => {
	stderr += chunk;
});
child.on('close', (code, signal) => {
	writeFileSync(result, JSON.stringify({code, signal, stderr}));
	process.exit(0);
});
