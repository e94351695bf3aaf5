/**
 * The request of a page as a curl command the user can paste into a shell:
 * `u` in the browser copies it. The credential is never in it: the command
 * names the environment variable the credential came from (or a stand-in
 * variable, said in a comment line when pagewalk knows of none), and a CDP
 * key, which signs a fresh JWT for every request, becomes `$JWT` with a
 * comment naming the `uri` claim to sign.
 *
 * Pure: the browse command builds `curlFor(url)` from the walk's config, so
 * the browser never holds a credential, only this function.
 */
import type {Credential} from '../../config/credentials.js';
import {jwtLifetimeSeconds, requestUri} from '../../config/jwt-sign.js';
import {redact, secretLikeHeader} from '../../text/secret.js';
import {shellQuote} from '../../text/shell-quote.js';
import type {Api} from '../../contract/types.js';
import {again, commandLine, type UserLine} from '../../config/hints.js';

/** How the command refers to the credential: a shell variable, never its value. */
export type CurlAuth =
	/** A token or API key in the variable `name`; `note` says so when pagewalk did not read it from there. */
	| {kind: 'variable'; name: string; note?: string}
	/**
	 * A CDP key: a JWT signed for the request is needed; `from` names the key's source, `demo` that it is the --demo
	 * sandbox's; `line`, the user's command, whose credential flags `pagewalk token` takes to sign one.
	 */
	| {kind: 'jwt'; from: string; demo?: boolean; line?: UserLine};

export type CurlSource = {
	api: Api;
	auth: CurlAuth;
	/** The walk's request headers apart from the credential (version, --header). */
	headers: Readonly<Record<string, string>>;
};

/** Headers curl sends on its own, or that say nothing about the request's meaning. */
const leftOut = new Set(['accept', 'user-agent']);

/** A shell variable name: anything else never reaches the command unquoted. */
const variableName = /^[A-Za-z_]\w*$/;

/** A comment line: a line break or control character in server or user text must not end it. */
function comment(text: string): string {
	// eslint-disable-next-line no-control-regex -- control characters are what is removed
	return `# ${text.replaceAll(/[\u0000-\u001F\u007F-\u009F]/g, ' ')}`;
}

/**
 * How the command names `credential`: the environment variable it was read
 * from when it was, else a stand-in variable with a note. `demo`: the --demo
 * sandbox's credentials live in no variable; `profile`: the profile in use,
 * whose credential reached pagewalk through its own source (`profileVariable`
 * when that source is an environment variable).
 */
export function curlAuthOf(credential: Credential, context: {demo: boolean; profile?: string | undefined; profileVariable?: string | undefined; line?: UserLine | undefined}): CurlAuth {
	if (credential.kind === 'cdp-key') {
		return context.demo ? {kind: 'jwt', from: credential.from, demo: true} : {kind: 'jwt', from: credential.from, ...(context.line ? {line: context.line} : {})};
	}

	const what = credential.kind === 'api-key' ? 'API key' : 'token';
	const standIn = credential.kind === 'api-key' ? 'PAGEWALK_API_KEY' : 'PAGEWALK_TOKEN';
	if (context.demo) {
		return {
			kind: 'variable',
			name: standIn,
			note: `--demo: the sandbox's ${credential.from} is in no environment variable (the sandbox stops when pagewalk quits); set ${standIn} to a ${what} of the server you send this to.`,
		};
	}

	if (context.profile !== undefined) {
		// A profile that reads the credential from a variable: that variable, as the user set it.
		if (context.profileVariable !== undefined && variableName.test(context.profileVariable)) {
			return {kind: 'variable', name: context.profileVariable};
		}

		return {kind: 'variable', name: standIn, note: `set ${standIn} to the ${what} of profile ${context.profile} first (pagewalk does not copy credentials).`};
	}

	if (variableName.test(credential.from)) {
		return {kind: 'variable', name: credential.from};
	}

	return {kind: 'variable', name: standIn, note: `set ${standIn} to the ${what} from ${credential.from} first (pagewalk does not copy credentials).`};
}

/**
 * `curl` for a GET of `url`, on one line, after the comment lines that say
 * what the user must provide. Everything but the credential's variable is
 * single-quoted; `-g` keeps curl from reading `[]{}` in a cursor as a glob.
 */
export function curlCommand(url: string, source: CurlSource): string {
	const notes: string[] = [];
	const headers: string[] = [];
	const {auth} = source;
	if (auth.kind === 'jwt') {
		// The token command with the walk's own credential flags; none signs with the --demo sandbox's key, which is in no file.
		const token = auth.line && !auth.demo ? ` (${again('curl-token', auth.line, {command: 'token', endpoint: redact(url)}).phrase} prints one)` : '';
		notes.push(`needs a JWT signed with the CDP key from ${auth.from} for uri "${requestUri('GET', url)}" (valid ${jwtLifetimeSeconds / 60} minutes, a new one per request): set JWT to it${token}.`);
		if (auth.demo) {
			notes.push(`--demo: that key is the sandbox's own, in no file or variable, and the sandbox stops when pagewalk quits; ${commandLine('curl-demo-serve', 'serve')} runs one that stays, and prints its key files and the token command for them.`);
		}

		headers.push('-H "Authorization: Bearer $JWT"');
	} else {
		const name = variableName.test(auth.name) ? auth.name : 'PAGEWALK_TOKEN';
		if (auth.note !== undefined) {
			notes.push(auth.note);
		}

		headers.push(source.api === 'account' ? `-H "Authorization: Bearer $${name}"` : `-H "X-CC-Api-Key: $${name}"`);
	}

	for (const [name, value] of Object.entries(source.headers)) {
		const lower = name.toLowerCase();
		if (leftOut.has(lower) || lower === 'authorization' || lower === 'x-cc-api-key') {
			continue;
		}

		if (secretLikeHeader(name)) {
			notes.push(`header ${name} left out: its name says it may hold a secret.`);
			continue;
		}

		headers.push(`-H ${shellQuote(`${name}: ${value}`)}`);
	}

	const command = ['curl', '-sS', '-g', ...headers, shellQuote(redact(url))].join(' ');
	// Redacted whole, the comment lines too: they quote where the credential came from and the walk's headers.
	return redact([...notes.map(note => comment(note)), command].join('\n'));
}
